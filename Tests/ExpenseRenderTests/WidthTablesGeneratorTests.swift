import Foundation
import Testing

/// The committed width tables are what their generator makes from the pinned `wcwidth`: a hand
/// edit, or tables left behind when the pin moves, would make `DisplayWidth` measure otherwise
/// than the independent width checker, and the width tests would then blame the layout.
@Suite struct WidthTablesGeneratorTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tools/generate-width-tables.py").path

  @Test func theCommittedTablesAreWhatTheGeneratorWrites() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", Self.script, "--check"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // 3: no wcwidth 0.7.0 on PATH's python3 (a missing oracle fails, never passes).
    #expect(process.terminationStatus == 0, "exit \(process.terminationStatus): \(report)")
    #expect(report.contains("width tables are up to date"), "\(report)")
  }
}
