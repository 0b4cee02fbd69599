import ExpenseImport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A one-line progress bar on stderr for long imports: rows, MB/s, ETA.
///
/// Drawn only when stderr is a terminal (a pipe or a log file gets nothing), at most ten times a
/// second, and erased when done so the summary on stdout stands alone.
/// Unchecked Sendable: `update` runs only on the import's parse thread, `finish` only after it ended.
final class ProgressBar: @unchecked Sendable {
  let enabled: Bool
  let width: Int
  let ascii: Bool
  let start = DispatchTime.now().uptimeNanoseconds
  var lastDraw: UInt64 = 0
  var drawn = false

  init(enabled: Bool, width: Int, ascii: Bool) {
    self.enabled = enabled
    self.width = max(20, width)
    self.ascii = ascii
  }

  func update(bytes: Int64, total: Int64?, rows: Int) {
    guard enabled else { return }
    let now = DispatchTime.now().uptimeNanoseconds
    guard now - lastDraw >= 100_000_000 else { return }
    lastDraw = now
    let seconds = Double(now - start) / 1e9
    let mbPerSecond = seconds > 0 ? Double(bytes) / 1_048_576 / seconds : 0
    var text = "\(rows) rows  \(String(format: "%.1f", mbPerSecond)) MB/s"
    var fraction: Double? = nil
    if let total, total > 0 {
      let share = min(1, Double(bytes) / Double(total))
      fraction = share
      if share > 0.01 {
        let eta = seconds / share - seconds
        text += "  ETA \(Int(eta.rounded()))s"
      }
    }
    if let fraction {
      let barWidth = max(0, min(30, width - text.count - 8))
      if barWidth >= 5 {
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let full = ascii ? "#" : "█"
        let empty = ascii ? "." : "░"
        text =
          String(repeating: full, count: filled) + String(repeating: empty, count: barWidth - filled)
          + " \(Int(fraction * 100))%  " + text
      }
    }
    if text.count > width - 1 { text = String(text.prefix(width - 1)) }
    try? Console.err("\r\u{1B}[2K" + text)
    drawn = true
  }

  /// What the import service calls with its progress (nil when nothing is drawn).
  var callback: (@Sendable (ImportProgress) -> Void)? {
    guard enabled else { return nil }
    return { [self] in update(bytes: $0.bytesRead, total: $0.totalBytes, rows: $0.rows) }
  }

  func finish() {
    guard enabled, drawn else { return }
    try? Console.err("\r\u{1B}[2K")
  }
}
