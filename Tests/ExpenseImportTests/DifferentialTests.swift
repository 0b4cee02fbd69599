import Foundation
import TestSupport
import Testing

@testable import ExpenseImport

/// Compares CSVReader with Python 3's `csv` module (default dialect) on a seeded corpus.
@Suite struct DifferentialTests {
  static let pieces = [
    "a", "b", "Z", "7", " ", "é", "😀", "中", "\"", ",", ";", "\t", "|", "\n", "\r", "\r\n", "x y", "''", "0.5",
  ]

  static func makeCorpus(count: Int) -> [(text: String, delimiter: String)] {
    var rng = SeededRandom(state: 20_261_020)
    let delimiters = [",", ";", "\t", "|"]
    var corpus: [(String, String)] = []
    for _ in 0..<count {
      let d = delimiters[Int(rng.next() % 4)]
      var text = ""
      let records = Int(rng.next() % 6) + 1
      for r in 0..<records {
        let fields = Int(rng.next() % 5) + 1
        var parts: [String] = []
        for _ in 0..<fields {
          var field = ""
          for _ in 0..<Int(rng.next() % 6) { field += pieces[Int(rng.next() % UInt64(pieces.count))] }
          let special = field.contains(d) || field.contains("\"") || field.contains("\n") || field.contains("\r")
          if special || rng.next() % 4 == 0 || (fields == 1 && field.isEmpty) {
            parts.append("\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
          } else if rng.next() % 5 == 0 && !field.isEmpty {
            parts.append(field + "\"x")  // a stray quote inside an unquoted field: kept literally
          } else {
            parts.append(field)
          }
        }
        text += parts.joined(separator: d)
        if r < records - 1 || rng.next() % 2 == 0 { text += ["\n", "\r\n", "\r"][Int(rng.next() % 3)] }
      }
      corpus.append((text, d))
    }
    return corpus
  }

  static func python() -> String? {
    for candidate in ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"]
    where FileManager.default.isExecutableFile(atPath: candidate) {
      return candidate
    }
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    for dir in paths where FileManager.default.isExecutableFile(atPath: "\(dir)/python3") { return "\(dir)/python3" }
    return nil
  }

  @Test func agreesWithPythonCSV() throws {
    // Python's csv module is this test's oracle: without it the test fails, never passes.
    let python = try #require(DifferentialTests.python(), "python3 is not on PATH: install it to run the CSV oracle")
    let corpus = DifferentialTests.makeCorpus(count: 400)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("csv-diff-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var arguments = [
      "-c",
      """
      import csv, json, sys
      args = sys.argv[1:]
      out = []
      for i in range(0, len(args), 2):
          with open(args[i], newline='', encoding='utf-8') as f:
              out.append(list(csv.reader(f, delimiter=args[i + 1])))
      sys.stdout.write(json.dumps(out))
      """,
    ]
    for (index, item) in corpus.enumerated() {
      let url = dir.appendingPathComponent("\(index).csv")
      try Data(item.text.utf8).write(to: url)
      arguments += [url.path, item.delimiter]
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let expected = try JSONDecoder().decode([[[String]]].self, from: data)
    #expect(expected.count == corpus.count)
    var mismatches = 0
    for (index, item) in corpus.enumerated() where index < expected.count {
      let ours = try parseAll(Array(item.text.utf8), delimiter: item.delimiter.utf8.first!, bufferSize: 5).map(\.1)
      if ours != expected[index] {
        mismatches += 1
        if mismatches <= 3 {
          Issue.record("file \(index) \(item.text.debugDescription): ours \(ours) python \(expected[index])")
        }
      }
    }
    #expect(mismatches == 0)
  }
}
