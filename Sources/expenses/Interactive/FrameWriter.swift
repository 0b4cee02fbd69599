import ExpenseInteractive

#if canImport(Glibc)
  import Glibc
#endif

/// Writes frames to the terminal, only the lines that changed since the last one, each
/// cleared first, in one `write`.
final class FrameWriter {
  private var previous: [String] = []
  let output: Int32

  init(output: Int32) { self.output = output }

  /// Draws `frame`; `full` clears the screen first (after a resize or Ctrl-L). Returns the
  /// seconds the write took until the terminal had the bytes (`tcdrain`), which tells a slow
  /// link.
  @discardableResult
  func draw(_ frame: Frame, color: Bool, full: Bool) throws(Console.Failure) -> Double {
    let lines = frame.styled(color: color)
    let redraw = full || lines.count != previous.count
    var out = redraw ? "\u{1B}[H\u{1B}[2J" : ""
    for (index, line) in lines.enumerated() where redraw || previous[index] != line {
      out += "\u{1B}[\(index + 1);1H\u{1B}[2K" + line
    }
    previous = lines
    guard !out.isEmpty else { return 0 }
    let start = monotonicSeconds()
    try Console.write(out, to: output)
    _ = tcdrain(output)
    return monotonicSeconds() - start
  }
}

/// Seconds on the monotonic clock (the driver's own timing; the screen never reads a clock).
func monotonicSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
