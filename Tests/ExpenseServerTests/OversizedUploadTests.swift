import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ExpenseServer

#if canImport(Glibc)
  import Glibc
#endif

/// A chunked upload past the limit is answered 413 at the limit and its connection closed: the
/// rest of the body is never read. Before, Hummingbird read the whole rest of the body (a
/// 400 MiB upload to its end) before the next request, and the client could send all of it.
@Suite struct OversizedUploadTests {
  /// Sends a chunked upload of up to `total` bytes on a real socket; returns how many bytes of
  /// body the server took before the connection failed, and what came back.
  static func upload(port: Int, token: String, total: Int) -> (sent: Int, reply: String) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return (-1, "socket") }
    defer { close(fd) }
    var wait = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return (-1, "connect \(errno)") }
    func send(_ bytes: [UInt8]) -> Bool {
      var offset = 0
      while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n <= 0 { return false }
        offset += n
      }
      return true
    }
    let head =
      "POST /v1/imports HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
      + "Content-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n"
    guard send(Array(head.utf8)) else { return (0, "head") }
    let row = Array("2026-10-01,-1.00,Coffee\n".utf8)
    let chunk = Array(repeating: row, count: 65_536 / row.count).flatMap { $0 }
    let framed = Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10]
    var sent = 0
    while sent < total, send(framed) { sent += chunk.count }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    return (sent, n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : "")
  }

  @Test func aChunkedUploadPastTheLimitIsCutOffAtTheLimit() async throws {
    let harness = try ServerHarness(uploadLimit: 1 << 20)
    let options = ExpenseServerApp.Options(uploadDirectory: harness.directory.path, uploadLimit: 1 << 20)
    let router = try ExpenseServerApp.router(backend: harness.backend, options: options, clock: harness.clock)
    let app = Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      logger: Logger(label: "expenses-test"))
    let token = harness.writeToken
    try await app.test(.live) { client in
      let port = try #require(client.port)
      let total = 256 << 20
      let (sent, reply) = await Task.detached { Self.upload(port: port, token: token, total: total) }.value
      #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply.prefix(200))")
      // The limit plus what the kernel's socket buffers held: far from the 256 MiB offered.
      #expect(sent < 64 << 20, "the server took \(sent >> 20) MiB of a 1 MiB limit")
    }
    #expect(try harness.database.expenseCount() == 0)
  }
}
