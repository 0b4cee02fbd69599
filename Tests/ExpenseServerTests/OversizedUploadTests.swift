import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TestSupport
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
    guard case .success(let fd) = LoopbackSocket.connect(port: port, timeout: 10, sendTimeout: 10) else {
      return (-1, "connect")
    }
    defer { close(fd) }
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
    // The answer is read as soon as it comes, and the sending goes on regardless (as a client
    // that never looks would): only the server can stop it.
    var sent = 0
    var reply: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    func take(_ flags: Int32) -> Int {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, flags) }
      if n > 0 { reply += buffer[0..<n] }
      return n
    }
    while sent < total, send(framed) {
      sent += chunk.count
      _ = take(Int32(MSG_DONTWAIT))
    }
    if reply.isEmpty { _ = take(0) }
    return (sent, String(decoding: reply, as: UTF8.self))
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
      // Closing a connection with unread bytes resets it: on a loaded machine the reset can reach
      // this client before it reads the answer, so an empty reply is a reset, and any reply is
      // the 413 (whose words the router tests pin: `ImportTests.aBodyOverTheLimitIs413`).
      #expect(reply.isEmpty || reply.hasPrefix("HTTP/1.1 413"), "\(reply.prefix(200))")
      // The limit plus what the kernel's socket buffers held: far from the 256 MiB offered.
      #expect(sent < 64 << 20, "the server took \(sent >> 20) MiB of a 1 MiB limit")
    }
    #expect(try harness.database.expenseCount(month: nil) == 0)
  }
}
