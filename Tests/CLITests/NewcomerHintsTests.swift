import Foundation
import TestSupport
import Testing

/// What a newcomer meets after an import, through the built binary: every hint that sends the
/// user to another command is answered by that command, examples are ones the command takes,
/// a typo in a category is caught, and the import's summary and dry run read well when folded.
@Suite struct NewcomerHintsTests {
  func demo() throws -> CLI {
    let cli = try CLI()
    let made = try cli.run(["demo", "--keep", cli.db, "--width", "80"], useDatabase: false)
    #expect(made.code == 0, "\(made.stderr)")
    return cli
  }

  /// `delete` and `edit` send the user to `list` for ids: `list` shows every id, at every width.
  @Test func theErrorThatAsksForIdsIsAnsweredByList() throws {
    let cli = try demo()
    let missing = try cli.run(["delete", "999999"])
    #expect(missing.code == 64)
    #expect(missing.stderr.contains("see 'expenses list' for ids"), "\(missing.stderr)")
    let rows = try #require(try cli.json(["list", "--month", "2026-10", "--format", "json"]) as? [[String: Any]])
    let ids = rows.compactMap { $0["id"] as? Int64 }
    #expect(ids.count == rows.count && !ids.isEmpty)
    for width in [20, 21, 27, 31, 32, 40, 59, 60, 80, 100, 132, 200] {
      let list = try cli.run(["list", "--month", "2026-10", "--width", String(width)])
      #expect(list.code == 0, "\(list.stderr)")
      let lines = list.stdout.split(separator: "\n").map(String.init)
      for id in ids {
        // As a word of its own: the Id column (`  42  Oct 20 …`) or a card's `id 42`.
        #expect(
          lines.contains { $0.split(separator: " ").contains(Substring(String(id))) },
          "\(width): id \(id) not shown\n\(list.stdout)")
      }
      let check = try independentWidthCheck(list.stdout, width: width)
      #expect(check.ok, "\(width): \(check.message)")
    }
    // An id read off the list is one `delete` takes.
    let first = try #require(ids.first)
    #expect(try cli.run(["delete", String(first)]).code == 0)
  }

  /// Every command a hint or error names as `'expenses …'` exists, and its help runs.
  @Test func everyCommandAHintNamesExists() throws {
    let cli = try CLI()
    let sources = CLI.root.appendingPathComponent("Sources")
    var named: Set<String> = []
    let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
    while let url = files?.nextObject() as? URL {
      guard url.pathExtension == "swift", !url.path.contains("/Generated/"),
        let text = try? String(contentsOf: url, encoding: .utf8)
      else { continue }
      let pattern = try NSRegularExpression(pattern: #"'expenses ([a-z][a-z-]*)( [a-z][a-z-]*)?"#)
      for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        guard let range = Range(match.range, in: text) else { continue }
        named.insert(String(text[range].dropFirst("'expenses ".count)))
      }
    }
    #expect(named.count > 10, "\(named)")
    for words in named {
      var command = words.split(separator: " ").map(String.init)
      let help = try cli.run(command + ["--help"], useDatabase: false)
      if help.code != 0 && command.count == 2 {
        // The second word is an argument (`'expenses restore FILE'` is caught upper-case-free
        // only when it is a word): the command alone must exist.
        command.removeLast()
      }
      let alone = try cli.run(command + ["--help"], useDatabase: false)
      #expect(alone.code == 0, "'expenses \(words)' named in a hint: \(alone.stderr)")
    }
  }

  /// The examples an error gives are ones the command takes (no `-5` where negatives are refused).
  @Test func theAmountErrorsExamplesAreAccepted() throws {
    let cli = try CLI()
    let bad = try cli.run(["add", "2026-10-01", "twelve", "coffee"])
    #expect(bad.code == 64)
    let examples =
      bad.stderr.components(separatedBy: "such as ").last?
      .components(separatedBy: CharacterSet(charactersIn: " ,\n")).filter {
        $0.first?.isNumber == true || $0.first == "-"
      }
      ?? []
    #expect(!examples.isEmpty, "\(bad.stderr)")
    for example in examples {
      let added = try cli.run(["add", "2026-10-01", example, "coffee"])
      #expect(added.code == 0, "the example '\(example)' is refused: \(added.stderr)")
      let budget = try cli.run(["budget", "set", "Coffee", example])
      #expect(budget.code == 0, "the example '\(example)' is refused by budget set: \(budget.stderr)")
    }
  }

  /// `list --category Dinning` is a typo of `Dining`: said so, not "No expenses.".
  @Test func aListOfAMisspelledCategoryAsksDidYouMean() throws {
    let cli = try CLI()
    #expect(try cli.run(["budget", "set", "Dining", "100"]).code == 0)
    let typo = try cli.run(["list", "--category", "Dinning"])
    #expect(typo.code == 64, "\(typo.stderr)")
    #expect(typo.stdout.isEmpty)
    #expect(typo.stderr.contains("no category 'Dinning'; did you mean 'Dining'?"), "\(typo.stderr)")
    // Known names (any case) and Uncategorized list as before.
    for name in ["Dining", "dining", "Uncategorized"] {
      let known = try cli.run(["list", "--category", name])
      #expect(known.code == 0 && known.stdout == "No expenses.\n", "\(name): \(known.stderr)")
    }
    let unrelated = try cli.run(["list", "--category", "Zebra"])
    #expect(unrelated.code == 64 && !unrelated.stderr.contains("did you mean"), "\(unrelated.stderr)")
  }

  /// `categories set-kind` for a name no category has refuses (did you mean …, --create), and
  /// makes it only when asked.
  @Test func setKindMakesNoCategoryUnasked() throws {
    let cli = try CLI()
    #expect(try cli.run(["budget", "set", "Salary", "0"]).code == 0)
    let typo = try cli.run(["categories", "set-kind", "Salry", "income"])
    #expect(typo.code == 64)
    #expect(typo.stderr.contains("did you mean 'Salary'?") && typo.stderr.contains("--create"), "\(typo.stderr)")
    let listed = try cli.run(["categories"])
    #expect(!listed.stdout.contains("Salry"), "nothing was made: \(listed.stdout)")
    let made = try cli.run(["categories", "set-kind", "Bonus", "income", "--create"])
    #expect(made.code == 0 && made.stdout.contains("Bonus is now an income category (a new category)"), "\(made)")
    let known = try cli.run(["categories", "set-kind", "salary", "income"])
    #expect(known.code == 0 && known.stdout == "salary is now an income category\n", "\(known.stdout)")
  }

  /// The summary's time keeps its unit: `0.04 s` is never split over two lines.
  @Test func theImportSummaryKeepsANumberWithItsUnit() throws {
    let cli = try CLI()
    let file = try cli.file(
      "a-bank-export-with-a-rather-long-name.csv", "Date,Description,Amount\n2026-10-02,Bakery,-4.50\n")
    for width in 20...80 {
      let result = try cli.run(["import", file, "--dry-run", "--width", String(width)])
      #expect(result.code == 0, "\(result.stderr)")
      let lines = result.stdout.split(separator: "\n").map(String.init)
      #expect(
        lines.contains { $0.range(of: #"[0-9]+\.[0-9][0-9] s"#, options: .regularExpression) != nil },
        "\(width): the time and its unit are apart\n\(result.stdout)")
      #expect(!result.stdout.contains("\u{00A0}"), "\(width): a no-break space is printed as a space")
      #expect(lines.allSatisfy { $0.count <= width }, "\(width)\n\(result.stdout)")
    }
  }

  /// The dry run's Detected block has one column for its values, for CSV and statements, and
  /// every line fits from 20 columns.
  @Test func theDetectedBlockAlignsAndFits() throws {
    let cli = try CLI()
    let csv = try cli.file("bank.csv", "Date,Description,Amount\n2026-10-02,Bakery,-4.50\n")
    let files = [
      csv, CLI.fixture("statements/ofx/us_checking_sgml_102.ofx"), CLI.fixture("statements/qif/uk_ccard_dmy.qif"),
      CLI.fixture("statements/camt053/sparkasse-001-02-batch.xml"),
      CLI.fixture("statements/mt940/deutsche-bank-structured.sta"),
    ]
    for file in files {
      let wide = try cli.run(["import", file, "--dry-run", "--width", "200"])
      #expect(wide.code == 0, "\(file): \(wide.stderr)")
      let lines = wide.stdout.split(separator: "\n").map(String.init)
      let start = try #require(lines.firstIndex(of: "Detected:"))
      // `  label:   value`: the lines up to the columns list or the rows.
      let block = lines[(start + 1)...].prefix { $0.hasPrefix("  ") && !$0.hasPrefix("  line ") }
        .filter {
          !$0.hasPrefix("  warning:") && $0.range(of: #"^  [a-z][a-z ]*: "#, options: .regularExpression) != nil
        }
      #expect(block.count >= 3, "\(file)\n\(wide.stdout)")
      let columns = Set(
        block.map { line -> Int in
          let colon = line.firstIndex(of: ":")!
          return line.distance(from: line.startIndex, to: line[colon...].dropFirst().firstIndex { $0 != " " }!)
        })
      #expect(
        columns.count == 1, "\(file): values start at columns \(columns.sorted())\n\(block.joined(separator: "\n"))")
      for width in [20, 21, 24, 30, 40, 59, 60, 80] {
        let result = try cli.run(["import", file, "--dry-run", "--width", String(width)])
        #expect(result.code == 0)
        let check = try independentWidthCheck(result.stdout + result.stderr, width: width)
        #expect(check.ok, "\(file) at \(width): \(check.message)\n\(result.stdout)")
        // The currency line is there, whole in its words.
        let words = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("currency:") || words.contains("Currency:"), "\(file) at \(width)")
      }
    }
  }

  /// The report's Total row says what its figures count, at every width.
  @Test func theTotalRowSaysWhatItCounts() throws {
    let cli = try demo()
    for width in 20...200 {
      let result = try cli.run(["report", "--month", "2026-10", "--today", "2026-10-20", "--width", String(width)])
      #expect(result.code == 0)
      let words = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(
        words.contains("Total: spent counts every category; left and % only budgeted ones"),
        "\(width)\n\(result.stdout)")
      #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= width }, "\(width)")
    }
    for width in [20, 40, 59, 60, 80, 200] {
      let result = try cli.run(["report", "--month", "2026-10", "--today", "2026-10-20", "--width", String(width)])
      let check = try independentWidthCheck(result.stdout, width: width)
      #expect(check.ok, "\(width): \(check.message)")
    }
  }
}
