import Foundation

/// The project's independent CSV reader, `Tests/Tools/csv-to-json.py` (Python's `csv` module,
/// strict, the default dialect), as in-process test targets call it.
///
/// A reader that cannot run is an error, never a verdict: `read` throws `Unavailable` when
/// python3 is missing or the text does not parse, so a test with no oracle fails.
public enum CSVOracle {
  /// The oracle gave no records.
  public struct Unavailable: Error, CustomStringConvertible {
    public var description: String
  }

  /// The script, found from this file's place in the repository.
  public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tools/csv-to-json.py").path

  /// Python's reading of `csv`: its records as arrays of strings.
  public static func read(_ csv: String) throws -> [[String]] {
    // From a file, not a pipe: a large text would fill the pipe while the oracle's output waits.
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("csv-oracle-\(UUID().uuidString).csv")
    try Data(csv.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script]
    let output = Pipe()
    process.standardInput = try FileHandle(forReadingFrom: file)
    process.standardOutput = output
    process.standardError = output
    do { try process.run() } catch {
      throw Unavailable(description: "cannot run python3 \(script): \(error); install python3")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, let rows = try? JSONSerialization.jsonObject(with: data) as? [[String]] else {
      throw Unavailable(
        description: "the CSV oracle gave no records (exit \(process.terminationStatus)): "
          + String(decoding: data, as: UTF8.self))
    }
    return rows
  }
}
