import Foundation

/// The project's independent width oracle, `Tests/Tools/max-line-width.py` (Python's `wcwidth`
/// package, not the project's own Swift width tables), as every test target calls it.
///
/// A checker that cannot run is an error, never a verdict: `fits` throws `Unavailable` when
/// python3 or wcwidth is missing, so a test with no oracle fails instead of passing.
public enum WidthChecker {
  /// The checker could not give a verdict (exit status other than 0 or 1).
  public struct Unavailable: Error, CustomStringConvertible {
    public var description: String
  }

  /// The script, found from this file's place in the repository.
  public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tools/max-line-width.py").path

  private static let counter = NSLock()
  nonisolated(unsafe) private static var count = 0

  /// How many texts the checker has measured in this test process.
  public static var runs: Int {
    counter.lock()
    defer { counter.unlock() }
    return count
  }

  /// Whether every line of `text` fits in `width` terminal cells, and the checker's report.
  public static func check(_ text: String, width: Int) throws -> (fits: Bool, report: String) {
    // From a file, not a pipe: a checker that stops early (no wcwidth) would leave a large text
    // unread in the pipe, and the write would end the test process with SIGPIPE.
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("width-oracle-\(UUID().uuidString).txt")
    try Data(text.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script, String(width)]
    let output = Pipe()
    process.standardInput = try FileHandle(forReadingFrom: file)
    process.standardOutput = output
    process.standardError = output
    do { try process.run() } catch {
      throw Unavailable(description: "cannot run python3 \(script): \(error); install python3")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let report = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0 || process.terminationStatus == 1 else {
      throw Unavailable(description: "the width checker gave no verdict (exit \(process.terminationStatus)): \(report)")
    }
    counter.lock()
    count += 1
    counter.unlock()
    return (process.terminationStatus == 0, report)
  }

  /// Whether every line of `text` fits in `width` cells.
  public static func fits(_ text: String, width: Int) throws -> Bool { try check(text, width: width).fits }
}
