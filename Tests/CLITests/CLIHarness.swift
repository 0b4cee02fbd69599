import Foundation
import TestSupport
import Testing

/// Runs the built `expenses` binary as a user would: a fresh temporary database, no terminal,
/// a pinned environment, and stdout, stderr and exit code captured.
final class CLI {
  struct Result {
    var stdout: String
    var stderr: String
    var code: Int32

    /// The output with every run of whitespace as one space: a summary wrapped at the width
    /// (where a long checkout path moves the breaks) reads the same as unwrapped.
    var words: String { stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
  }

  let directory: URL
  var db: String { directory.appendingPathComponent("test.sqlite").path }

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  /// The test's folder goes when the test is done with it: runs leave nothing in the temp folder.
  deinit { try? FileManager.default.removeItem(at: directory) }

  /// The `expenses` executable next to the test bundle in the build folder, or the one
  /// `EXPENSES_TEST_BINARY` names (a release build: `.ci/run` runs these tests against the
  /// binary the README's install command makes).
  static var binary: URL {
    if let path = ProcessInfo.processInfo.environment["EXPENSES_TEST_BINARY"], !path.isEmpty {
      return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        .standardizedFileURL
    }
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = url.appendingPathComponent("expenses")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      url = url.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
      ".build/debug/expenses")
  }

  /// Project root (for fixtures), from this file's path.
  static var root: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  }

  static func fixture(_ path: String) -> String { root.appendingPathComponent("Fixtures/" + path).path }

  func file(_ name: String, _ contents: String) throws -> String {
    let path = directory.appendingPathComponent(name).path
    try contents.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  /// Runs `expenses ARGS --db <temp>` (the database is passed unless `useDatabase` is false).
  @discardableResult
  func run(_ arguments: [String], useDatabase: Bool = true, environment extra: [String: String] = [:]) throws -> Result
  {
    var environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "LANG": "C.UTF-8"]
    for (key, value) in extra { environment[key] = value }
    return try CLI.runProcess(
      CLI.binary, useDatabase ? arguments + ["--db", db] : arguments, environment: environment)
  }

  /// Runs `executable` to its end with exactly `environment` (in `directory` if given; stdin
  /// `standardInput`, inherited when nil) and captures stdout, stderr and the exit code.
  static func runProcess(
    _ executable: URL, _ arguments: [String], environment: [String: String], directory: URL? = nil,
    standardInput: FileHandle? = FileHandle.nullDevice
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    if let standardInput { process.standardInput = standardInput }
    try process.run()
    // Read both pipes before waiting so a large output cannot block the child.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
      code: process.terminationStatus)
  }

  func json(_ arguments: [String]) throws -> Any {
    let result = try run(arguments)
    #expect(result.code == 0, "\(arguments): \(result.stderr)")
    return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
  }

  func databaseBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: db)) }
}

/// Widest line in terminal cells, measured by the project's independent checker script
/// (throws when it cannot run: a missing oracle fails the test).
func independentWidthCheck(_ text: String, width: Int) throws -> (ok: Bool, message: String) {
  let verdict = try WidthChecker.check(text, width: width)
  return (verdict.fits, verdict.report)
}
