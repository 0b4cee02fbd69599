import Foundation
import TestSupport

/// A TCP connection to a live server on 127.0.0.1, written and read byte for byte: for requests
/// no HTTP client would send (any Host header, half a request, a connection left idle).
final class RawConnection {
  let descriptor: Int32

  /// Connects; `timeout` bounds each later read (so a test never hangs on a server that
  /// keeps the connection open).
  init(port: Int, timeout: Int = 30) throws {
    switch LoopbackSocket.connect(port: port, timeout: timeout) {
    case .success(let fd): descriptor = fd
    case .failure(let error): throw RawHTTPError(message: "connect: \(error.code.rawValue)")
    }
  }

  deinit { close(descriptor) }

  func send(_ text: String) throws {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      guard written > 0 else { throw RawHTTPError(message: "write: \(errno)") }
      offset += written
    }
  }

  /// Everything until the server closes the connection; throws when the read times out first.
  func readToEnd() throws -> String {
    var data = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return String(decoding: data, as: UTF8.self) }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == ECONNRESET { return String(decoding: data, as: UTF8.self) }
        throw RawHTTPError(message: "the server kept the connection open (read: errno \(errno))")
      }
      data += buffer[0..<count]
    }
  }

  /// One request with `Connection: close`; the status code and the whole answer.
  static func get(port: Int, path: String, host: String) throws -> (status: Int, text: String) {
    let connection = try RawConnection(port: port)
    try connection.send("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
    let text = try connection.readToEnd()
    let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
    return (status, text)
  }
}

struct RawHTTPError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
