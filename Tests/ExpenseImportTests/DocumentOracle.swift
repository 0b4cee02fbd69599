import Foundation
import TestSupport

/// What the XML readers' oracle tests share: the byte mutations that turn a good statement
/// into an awkward one, and one run of a Python oracle (`Tests/Tools/NAME`) over every
/// document, its stdout a line per document in order.
enum DocumentOracle {
  /// `bytes` with one to `most` bytes replaced, inserted or removed, drawn from `alphabet`.
  static func mutated(_ bytes: [UInt8], alphabet: [UInt8], random: inout SeededRandom, most: Int = 3) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<random.int(1...most) where !bytes.isEmpty {
      let at = random.int(0...(bytes.count - 1))
      let byte = alphabet[random.int(0...(alphabet.count - 1))]
      switch random.int(0...2) {
      case 0: bytes[at] = byte
      case 1: bytes.insert(byte, at: at)
      default: bytes.remove(at: at)
      }
    }
    return bytes
  }

  /// Writes each document to `folder` (as `INDEX.EXT`) and runs the oracle script over all of
  /// them with `python`; returns its standard output.
  static func run(
    _ script: String, python: String, documents: [[UInt8]], in folder: URL, extension ext: String
  ) throws -> Data {
    var paths: [String] = []
    for (index, bytes) in documents.enumerated() {
      let path = folder.appendingPathComponent("\(index).\(ext)").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      paths.append(path)
    }
    let tools = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Tools")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [tools.appendingPathComponent(script).path] + paths
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return output
  }
}
