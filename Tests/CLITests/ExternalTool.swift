import Foundation
import Testing

/// Runs a program the formats tests use as an independent oracle (hledger, bean-check,
/// python3 with Selenium), found on `PATH`. A missing program fails the test with what to
/// install: an oracle that is not there never lets a test pass.
enum ExternalTool {
  struct Result {
    var code: Int32
    var stdout: String
    var stderr: String
  }

  /// The program's path, or `nil` after recording a failure that names the package to install.
  static func require(_ name: String, install: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    Issue.record("\(name) is not installed: \(install) (.ci/run installs it)", sourceLocation: sourceLocation)
    return nil
  }

  static func run(_ program: String, _ arguments: [String], input: String? = nil) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    let stdin = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    if let input {
      stdin.fileHandleForWriting.write(Data(input.utf8))
      try stdin.fileHandleForWriting.close()
    }
    // Both pipes are drained on their own threads so neither can fill and block the child.
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      errData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Result(
      code: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
