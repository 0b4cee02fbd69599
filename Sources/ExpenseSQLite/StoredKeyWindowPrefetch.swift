import Foundation

/// Reads the window the parse thread will ask for next on a thread of its own, through a
/// second `StoredKeyWindowReader` with the same snapshot, while the parse thread goes on with
/// the window before.
///
/// Why: a re-import's parse thread is its bound while the other core is idle, and reading the
/// stored keys through SQLite (a million keys for a million rows) was about 7% of it. A file in
/// date order asks the windows in order, so the next one is read ahead; a window read ahead
/// that is not asked for is dropped, and one asked for that was not read ahead is read as
/// before, on the parse thread. Nothing else is shared between the threads.
final class StoredKeyWindowPrefetch: @unchecked Sendable {
  private let condition = NSCondition()
  private let reader: StoredKeyWindowReader
  /// The window asked for ahead (nil: none), and its keys once read (`done`).
  private var asked: Int64?
  private var done = false
  private var window: StoredKeyWindows.Window?
  private var stopping = false
  private var stopped = false

  init(reader: StoredKeyWindowReader) {
    self.reader = reader
    let thread = Thread { [self] in run() }
    thread.name = "expenses-stored-keys"
    thread.start()
  }

  /// Starts reading window `index` ahead, unless a read ahead is still running.
  func ask(_ index: Int64) {
    condition.lock()
    defer { condition.unlock() }
    guard asked == nil || done, !stopping else { return }
    asked = index
    done = false
    window = nil
    condition.broadcast()
  }

  /// Window `index` if it was asked for ahead (waiting for its read to end), `.none` if not;
  /// the inner nil is a read that failed.
  func take(_ index: Int64) -> StoredKeyWindows.Window?? {
    condition.lock()
    defer { condition.unlock() }
    guard asked == index else { return .none }
    while !done && !stopping { condition.wait() }
    guard done else { return .none }
    let taken = window
    asked = nil
    done = false
    window = nil
    return .some(taken)
  }

  /// Stops the thread, waits for it, and closes its connection.
  func stop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    while !stopped { condition.wait() }
    condition.unlock()
  }

  private func run() {
    condition.lock()
    while true {
      while !stopping && (asked == nil || done) { condition.wait() }
      if stopping { break }
      let index = asked ?? 0
      condition.unlock()
      let read = reader.read(index)
      condition.lock()
      if asked == index {
        window = read
        done = true
        condition.broadcast()
      }
    }
    reader.close()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }
}
