import Foundation
import Logging
import Synchronization
import Testing

@testable import ExpenseServer

/// The server's own log handler writes the lines swift-log's `StreamLogHandler` writes (the
/// oracle), byte for byte after the time, which has the same form.
@Suite struct ServerLogHandlerTests {
  /// Collects what a `StreamLogHandler` writes.
  final class Collected: TextOutputStream, @unchecked Sendable {
    let text = Mutex("")
    func write(_ string: String) { text.withLock { $0 += string } }
  }

  struct Stream: TextOutputStream, Sendable {
    let collected: Collected
    func write(_ string: String) { collected.write(string) }
  }

  @Test func linesAreTheStreamHandlersLines() throws {
    let pipe = Pipe()
    let collected = Collected()
    var ours = Logger(label: "expenses") {
      ServerLogHandler(label: $0, descriptor: pipe.fileHandleForWriting.fileDescriptor)
    }
    var theirs = Logger(label: "expenses") { StreamLogHandler(label: $0, stream: Stream(collected: collected)) }
    ours.logLevel = .debug
    theirs.logLevel = .debug
    for logger in [ours, theirs] {
      var logger = logger
      logger[metadataKey: "hb.request.id"] = "5fe1"
      logger.info("GET /v1/reports/2026-10 200 14870us", metadata: ["token": "phone@family"])
      logger.warning("read replica down; reads go to the primary")
      logger.debug("zeta", metadata: ["b": "2", "a": "1", "list": ["x", "y"]])
      logger.error("no metadata of its own", metadata: [:])
    }
    try pipe.fileHandleForWriting.close()
    let written = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let expected = collected.text.withLock { $0 }
    func split(_ text: String) -> [(time: String, rest: String)] {
      text.split(separator: "\n").map { line in
        let parts = line.split(separator: " ", maxSplits: 1)
        return (String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : "")
      }
    }
    let (mine, oracle) = (split(written), split(expected))
    #expect(mine.count == 4 && mine.count == oracle.count, "\(written)\n---\n\(expected)")
    #expect(mine.map(\.rest) == oracle.map(\.rest), "\(written)\n---\n\(expected)")
    let form = try Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}$"#)
    #expect(mine.allSatisfy { $0.time.wholeMatch(of: form) != nil }, "\(written)")
    #expect(oracle.allSatisfy { $0.time.wholeMatch(of: form) != nil }, "\(expected)")
  }
}
