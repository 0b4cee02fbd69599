import Foundation
import NIOCore

/// What `expenses serve` says about the address it listens on.
public enum ServeAddress {
  /// `127.0.0.0/8`, `::1` and `localhost`: reachable from this machine only.
  public static func isLoopback(_ host: String) -> Bool {
    let name = host.lowercased()
    if name == "localhost" || name == "::1" || name == "[::1]" { return true }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
  }

  /// `0.0.0.0` or `::` (any spelling of the IPv6 unspecified address): every interface.
  public static func isWildcard(_ host: String) -> Bool {
    if host == "0.0.0.0" { return true }
    var address = in6_addr()
    let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    guard inet_pton(AF_INET6, bare, &address) == 1 else { return false }
    return withUnsafeBytes(of: &address) { bytes in bytes.allSatisfy { $0 == 0 } }
  }

  /// The base URL: IPv6 addresses in brackets (`http://[::1]:8080`).
  public static func url(host: String, port: Int) -> String {
    let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    return "http://\(bracketed):\(port)"
  }

  /// The errno of a failure to bind or listen (NIO's `IOError`), nil for other errors.
  public static func systemErrorCode(of error: any Error) -> Int32? {
    (error as? IOError)?.errnoCode
  }

  /// Why `host` cannot be listened on, or nil when it is an IP address or a name that resolves.
  public static func problem(with host: String) -> String? {
    if host.isEmpty { return "--host is empty" }
    var v4 = in_addr()
    var v6 = in6_addr()
    if inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1 { return nil }
    var hints = addrinfo()
    hints.ai_flags = AI_PASSIVE
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var result: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, nil, &hints, &result)
    if let result { freeaddrinfo(result) }
    guard status == 0 else { return "cannot listen on --host '\(host)': \(String(cString: gai_strerror(status)))" }
    return nil
  }
}
