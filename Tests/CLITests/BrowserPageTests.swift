import Foundation
import Testing

/// `report --format html` in a real browser: headless Chromium driven by Selenium through
/// Tests/Tools/browser-check.py, on the demo and on a stress database (200 categories with
/// long unbreakable, CJK and emoji names), at 320 to 1920 CSS px. Screenshots are kept in
/// .build/browser-artifacts/ (the test prints the folder).
@Suite(.serialized) struct BrowserPageTests {
  /// Where the pages, their JSON and the screenshots are kept after the run.
  static var artifacts: URL { CLI.root.appendingPathComponent(".build/browser-artifacts") }

  /// 200 categories: unbreakable Latin, CJK, emoji runs, markup and quotes; 30 with budgets
  /// (some over); long descriptions; five months for the trends.
  func stressCSV() -> (csv: String, names: [String]) {
    var names: [String] = []
    var lines = ["Date,Description,Amount,Category,Account"]
    for i in 0..<200 {
      let name: String
      switch i % 4 {
      case 0: name = String(repeating: "Supercalifragilistic", count: 5) + "\(i)"
      case 1: name = String(repeating: "東京都渋谷区の非常に長いカテゴリー名前", count: 3) + "\(i)"
      case 2: name = String(repeating: "🍕🍔🌮🍣🍜", count: 6) + "\(i)"
      default: name = "Family 👨‍👩‍👧‍👦 & friends <b>bold</b> 'quoted' \(i)"
      }
      names.append(name)
      let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      for month in 6...10 {
        let cents = (i * 7919 + month * 104_729) % 90_000 + 100
        let description = String(repeating: "Ｌｏｎｇ－ｄｅｓｃｒｉｐｔｉｏｎ", count: i % 3 + 1) + " \(i)-\(month)"
        let amount = String(format: "-%d.%02d", cents / 100, cents % 100)
        lines.append(
          "2026-\(String(format: "%02d", month))-\(String(format: "%02d", i % 20 + 1)),\(description),\(amount),\(quoted),Account \(i % 3)"
        )
      }
    }
    return (lines.joined(separator: "\n") + "\n", names)
  }

  @Test func pagesFitEveryViewportInChromium() throws {
    guard let python = ExternalTool.require("python3", install: "apt-get install python3") else { return }
    // Only this test's own artefacts go (the served page's test keeps its screenshot here too).
    try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
    for file in try FileManager.default.contentsOfDirectory(atPath: Self.artifacts.path)
    where file.hasPrefix("demo") || file.hasPrefix("stress") {
      try FileManager.default.removeItem(at: Self.artifacts.appendingPathComponent(file))
    }
    let report = ["report", "--month", "2026-10", "--today", "2026-10-20"]
    var pages: [String] = []

    // The demo with saved states other than the defaults: categories collapsed, trends open.
    let demo = try CLI()
    #expect(try demo.run(["demo", "--keep", demo.db], useDatabase: false).code == 0)
    #expect(try demo.run(["sections", "collapse", "category-performance"]).code == 0)
    #expect(try demo.run(["sections", "expand", "trends"]).code == 0)
    // The stress database with the default states (expenses and trends collapsed).
    let stress = try CLI()
    let (csv, names) = stressCSV()
    let imported = try stress.run(["import", try stress.file("stress.csv", csv)])
    #expect(imported.code == 0, "\(imported.stderr)")
    for (index, name) in names.prefix(30).enumerated() {
      // Some carry over (all, from July), some are yearly, and budget moves and goals with the
      // long names: the carries, the move lines and the goals section at every width.
      // Others are yearly: the `/yr` cells and the notes under the table.
      let rollover = index % 3 == 0 ? ["--rollover", "all", "--today", "2026-07-15"] : []
      let period = index % 3 == 1 && index < 12 ? ["--period", "year"] : []
      #expect(try stress.run(["budget", "set", name, index % 2 == 0 ? "20" : "2000"] + rollover + period).code == 0)
    }
    for index in 0..<4 {
      let move = ["budget", "move", "5", names[2 * index + 1], names[2 * index], "--month", "2026-10"]
      let moved = try stress.run(move)
      #expect(moved.code == 0, "\(moved.stderr)")
      let goal = ["goal", "add", names[index] + " goal", "5000", "--by", "2027-06", "--category", names[index]]
      let added = try stress.run(goal + ["--today", "2026-08-15"])
      #expect(added.code == 0, "\(added.stderr)")
    }
    #expect(try stress.run(["sections", "expand", "goals"]).code == 0)
    // A statement with a balance (September's: October's cards stay as they are): the accounts
    // section, open.
    #expect(try stress.run(["import", CLI.fixture("balances/checking-sep.ofx")]).code == 0)
    #expect(try stress.run(["sections", "expand", "accounts"]).code == 0)
    for (name, cli) in [("demo", demo), ("stress", stress)] {
      let html = try cli.run(report + ["--format", "html"])
      let json = try cli.run(report + ["--format", "json"])
      #expect(html.code == 0 && json.code == 0, "\(html.stderr)\(json.stderr)")
      let htmlPath = Self.artifacts.appendingPathComponent("\(name).html").path
      let jsonPath = Self.artifacts.appendingPathComponent("\(name).json").path
      try html.stdout.write(toFile: htmlPath, atomically: false, encoding: .utf8)
      try json.stdout.write(toFile: jsonPath, atomically: false, encoding: .utf8)
      pages += [htmlPath, jsonPath]
    }
    let stressHTML = try String(contentsOfFile: pages[2], encoding: .utf8)
    #expect(stressHTML.contains("&lt;b&gt;bold&lt;/b&gt; &#39;quoted&#39;") && !stressHTML.contains("<b>bold"))
    #expect(stressHTML.components(separatedBy: "<li class=\"card").count - 1 == 201, "200 cards and the total")

    let checker = CLI.root.appendingPathComponent("Tests/Tools/browser-check.py").path
    let result = try ExternalTool.run(python, [checker, Self.artifacts.path] + pages)
    print("browser artefacts (pages, screenshots): \(Self.artifacts.path)")
    print(
      result.stdout.split(separator: "\n").filter {
        $0.hasPrefix("FAIL") || $0.hasPrefix("screenshot") || $0.contains("failed checks")
      }.joined(separator: "\n"))
    #expect(result.code == 0, "browser-check: \(result.stderr)\n\(result.stdout.suffix(4000))")
    for shot in ["demo-375.png", "demo-1440.png", "stress-375.png", "stress-1440.png"] {
      #expect(FileManager.default.fileExists(atPath: Self.artifacts.appendingPathComponent(shot).path), "\(shot)")
    }
  }
}
