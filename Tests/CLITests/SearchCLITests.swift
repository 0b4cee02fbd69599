import Foundation
import TestSupport
import Testing

/// `list --search` through the built binary against an independent oracle: on random ledgers
/// (accented and mixed-case payees, three currencies, a year of dates), every search's rows are
/// exactly the rows Python's own folding and decimal arithmetic keep of `list --format json`
/// (Tests/Tools/search-oracle.py); the text table ends with the count and the total per currency.
@Suite struct SearchCLITests {
  static let payees = [
    "CAFÉ MÜLLER", "Café Müller Bäckerei", "UBER *TRIP", "uber eats", "Lisbon Hotel Ñandú", "LISBOA TAXI",
    "Straße Markt", "STRASSE MARKT", "crème brûlée co", "Ｆｕｌｌ Ｗｉｄｔｈ", "Green Grocer 42", "Zürich Rail",
  ]

  @Test func searchesKeepWhatAnIndependentOracleKeeps() throws {
    guard let python = ExternalTool.require("python3", install: "apt-get install python3") else { return }
    let oracle = CLI.root.appendingPathComponent("Tests/Tools/search-oracle.py").path
    for seed in UInt64(1)...3 {
      let cli = try CLI()
      var random = SeededRandom(state: seed)
      var lines = ["Date,Description,Amount,Currency,Category"]
      for _ in 0..<200 {
        // Half with a reference of their own, as banks write them: texts seen once.
        let payee =
          Self.payees[random.int(0...Self.payees.count - 1)]
          + (random.int(0...1) == 0 ? " #\(random.int(1000...99999))" : "")
        let currency = ["USD", "EUR", "JPY"][random.int(0...2)]
        let amount = currency == "JPY" ? "\(random.int(1...9000))" : "\(random.int(0...400)).\(random.int(10...99))"
        let date = String(format: "2026-%02d-%02d", random.int(1...12), random.int(1...28))
        let category = ["Travel", "Dining out", "Café", ""][random.int(0...3)]
        lines.append("\(date),\"\(payee)\",-\(amount),\(currency),\(category)")
      }
      let file = try cli.file("random.csv", lines.joined(separator: "\n") + "\n")
      let imported = try cli.run(["import", file])
      #expect(imported.code == 0, "\(imported.stderr)")
      let all = try cli.run(["list", "--format", "json"]).stdout
      let listing = try cli.file("all.json", all)
      let queries: [[String: String]] = [
        ["search": "cafe"], ["search": "MULLER"], ["search": "uber", "min": "20"], ["search": "lisbo"],
        ["search": "strasse"], ["search": "full"], ["min": "100", "max": "200.5"], ["search": "creme brulee"],
        ["search": "cafe", "from": "2026-03-01", "to": "2026-06-30"], ["search": "zurich", "max": "50"],
        ["search": "travel"], ["search": "ñandú"],
      ]
      for query in queries {
        var arguments = ["list", "--format", "json"]
        for key in ["search", "min", "max", "from", "to"] {
          if let value = query[key] { arguments += ["--\(key)", value] }
        }
        let got = try cli.json(arguments) as? [[String: Any]] ?? []
        let ids = got.compactMap { $0["id"] as? Int }
        let payload = String(decoding: try JSONSerialization.data(withJSONObject: query), as: UTF8.self)
        let expected = try ExternalTool.run(python, [oracle, listing, payload]).stdout
          .split(separator: "\n").compactMap { Int($0) }
        #expect(ids == expected, "seed \(seed) \(query): \(ids.count) rows, the oracle \(expected.count)")
      }
      // The text table ends with the count and the total per currency, within the width.
      for width in [20, 40, 80] {
        let text = try cli.run(["list", "--search", "cafe", "--width", String(width)])
        let last = text.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(text.code == 0 && !text.stdout.hasSuffix("\n\n"), "one footer line, no blank line after it")
        #expect(last.contains("row") || last.contains("$") || last.contains("¥") || last.contains("€"), "\(last)")
        #expect(try independentWidthCheck(text.stdout, width: width).ok, "\(width)")
      }
    }
  }

  @Test func aBadBoundIsAUsageErrorNamingTheFlag() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-02", "12", "coffee"]).code == 0)
    let negative = try cli.run(["list", "--min", "-5"])
    #expect(negative.code == 64 && negative.stderr.contains("--min"), "\(negative.stderr)")
    let bad = try cli.run(["list", "--max", "12,50"])
    #expect(bad.code == 64 && bad.stderr.contains("--max takes an amount like 20 or 12.50"), "\(bad.stderr)")
    let backwards = try cli.run(["list", "--from", "2026-10-05", "--to", "2026-10-01"])
    #expect(backwards.code == 64 && backwards.stderr.contains("--to 2026-10-01 is before --from 2026-10-05"))
  }
}
