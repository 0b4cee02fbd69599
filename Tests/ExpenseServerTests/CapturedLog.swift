import Logging
import Synchronization

/// A swift-log handler that keeps every line, rendered as a stream handler would write it
/// (message, then the metadata's values), for tests that assert what reaches the log.
final class CapturedLog: Sendable {
  private let lines = Mutex<[String]>([])

  var all: [String] { lines.withLock { $0 } }

  func logger() -> Logger {
    var logger = Logger(label: "captured") { _ in Handler(log: self) }
    logger.logLevel = .trace
    return logger
  }

  fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

  struct Handler: LogHandler {
    let log: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      let merged = metadata.merging(event.metadata ?? [:]) { $1 }
      let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
      log.append("\(event.level) \(event.message) \(fields)")
    }
  }
}
