import Foundation
import TestSupport
import Testing

/// `list` and `export` of more rows than one output block (64 KiB) through the binary: every
/// format prints every row once, in order, the formats agree with each other, `export` to a
/// file is its stdout, and a reader that leaves early ends the command quietly.
@Suite struct StreamedListCLITests {
  static let rows = 4_000

  /// A database of `rows` imported rows (quotes, commas, accents, CJK, a formula start), the
  /// CLI and the binary's path.
  static func makeCLI() throws -> CLI {
    let cli = try CLI()
    let texts = ["Coffee shop", "\"Quoted\", with comma", "Café Müller", "Noodle Bar 麺", "=SUM(A1)", "SNCF — TGV"]
    var csv = "Date,Description,Amount,Category\n"
    for index in 0..<rows {
      let description = texts[index % texts.count] + " \(index)"
      let quoted = "\"" + description.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      csv += "2026-\(String(format: "%02d", 1 + index % 9))-\(String(format: "%02d", 1 + index % 28)),"
      csv += "\(quoted),-\(index / 100).\(String(format: "%02d", index % 100)),\(index % 3 == 0 ? "" : "Dining")\n"
    }
    let imported = try cli.run(["import", try cli.file("many.csv", csv)])
    #expect(imported.code == 0, "\(imported.stderr)")
    return cli
  }

  @Test func everyFormatPrintsEveryRowInOrder() throws {
    let cli = try Self.makeCLI()
    let json = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(json.count == Self.rows)
    let ids = json.compactMap { $0["id"] as? Int }
    #expect(ids.count == Self.rows && Set(ids).count == Self.rows)
    let dates = json.compactMap { $0["date"] as? String }
    #expect(dates == dates.sorted(by: >), "newest first")

    let csv = try cli.run(["list", "--format", "csv"])
    #expect(csv.code == 0, "\(csv.stderr)")
    #expect(csv.stdout.utf8.count > 4 * 65_536, "more than a few blocks")
    let records = try CSVOracle.read(csv.stdout)
    #expect(records.count == Self.rows + 1)
    #expect(records.dropFirst().map { Int($0[0]) ?? -1 } == ids, "the CSV's rows are the JSON's, in its order")
    #expect(
      records.dropFirst().map { $0[5] } == json.map { CSVText.defused($0["description"] as? String ?? "") },
      "descriptions as the JSON has them (a formula start defused)")

    let text = try cli.run(["list", "--width", "72"])
    #expect(text.code == 0, "\(text.stderr)")
    let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == Self.rows + 2, "a header, a line per row, and the final newline")
    let widths = try independentWidthCheck(text.stdout, width: 72)
    #expect(widths.ok, "\(widths.message)")
  }

  @Test func exportToAFileIsItsStandardOutput() throws {
    let cli = try Self.makeCLI()
    for format in ["ledger", "beancount"] {
      let printed = try cli.run(["export", "--format", format])
      #expect(printed.code == 0, "\(printed.stderr)")
      let path = cli.directory.appendingPathComponent("out.\(format)").path
      let written = try cli.run(["export", "--format", format, "-o", path])
      #expect(written.code == 0, "\(written.stderr)")
      #expect(try String(contentsOfFile: path, encoding: .utf8) == printed.stdout)
      let transactions = printed.stdout.split(separator: "\n").filter { $0.hasPrefix("2026-") && $0.contains(" * ") }
      #expect(transactions.count == Self.rows, "\(format)")
    }
  }

  @Test func aReaderThatLeavesEarlyEndsTheCommandQuietly() throws {
    let cli = try Self.makeCLI()
    for arguments in [["list", "--format", "csv"], ["list", "--format", "json"], ["export", "--format", "ledger"]] {
      let command = (["'\(CLI.binary.path)'"] + arguments + ["--db", "'\(cli.db)'"]).joined(separator: " ")
      let closed = try CLI.runProcess(
        URL(fileURLWithPath: "/bin/sh"), ["-c", "( \(command); echo \"rc=$?\" >&2 ) | head -c 100 > /dev/null"],
        environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
      #expect(closed.stderr.contains("rc=0"), "\(arguments): \(closed.stderr)")
      #expect(!closed.stderr.contains("expenses:"), "quiet: \(closed.stderr)")
    }
  }

  /// A row that cannot be read fails the command as before (the same message and exit code);
  /// the rows before it in the list's order have been printed.
  @Test func anUnreadableRowStopsTheListWithTheSameError() throws {
    let cli = try Self.makeCLI()
    try Python.sqlite(cli.db, "UPDATE expense SET currency = 'XXQ' WHERE id = 2000")
    for format in ["csv", "json", "text"] {
      let result = try cli.run(["list", "--format", format])
      #expect(result.code == 70, "\(format): \(result.code) \(result.stderr)")
      #expect(result.stderr.contains("unknown currency XXQ in expense 2000"), "\(result.stderr)")
    }
  }
}

/// How a description appears in the CSV (see `CSVWriter.text`): a formula start gets a quote.
enum CSVText {
  static func defused(_ text: String) -> String {
    guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return text }
    return "'" + text
  }
}
