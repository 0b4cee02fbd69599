import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore

/// `expenses check [--repair]`: looks the database over and says what is wrong with it.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Check the database for damage (exit 0 healthy, 65 damaged).",
    discussion: """
      Runs SQLite's integrity_check and foreign-key check, looks for stored values a report \
      could not read (an amount that is not a whole number, a bad date or currency), and \
      recomputes the monthly totals from the expenses to compare them with the stored ones. \
      --repair rebuilds totals that are out of step; other damage is reported with what to do.
      Examples:
        expenses check
        expenses check --repair
        expenses check --format json   (healthy, repaired, integrity, problems)
      """)

  @OptionGroup var database: DatabaseOptions
  @Flag(help: "Rebuild monthly totals that are out of step with the expenses.") var repair = false
  @Option(help: "Output: text or json.") var format: SummaryFormat = .text
  @OptionGroup var layout: WidthOptions

  /// `check --format json`: the report as found (after a repair, the report after it).
  struct JSONReport: Encodable {
    var database: String
    var healthy: Bool
    var repaired: [String]
    var integrity: [String]
    var expenseCount: Int
    var rollupsChecked: [String]
    var problems: [Problem]
    /// Each carry under rollover into this month, as reports show it and from the rows.
    var carries: [ExpenseService.CarryCheck]

    struct Problem: Encodable {
      var kind: String
      var table: String
      var expenseIds: [Int64]
      var rowCount: Int
      var months: [String]
      var message: String
      var repairable: Bool
    }
  }

  func run() throws {
    // Without --repair, check only reads: it takes no lock and writes nothing.
    let service = try repair ? database.writing() : database.reading()
    let file = service.store.filePath ?? ExpenseService.shown(path: database.resolvedPath)
    let path = TerminalText.sanitize(file)
    let outcome = try service.check(repair: repair)
    let report = outcome.report
    let rebuilt = outcome.rebuilt
    if format == .text {
      for table in rebuilt {
        try Console.out(FittedText.fit("repaired: rebuilt \(table) from the expenses", width: layout.resolved))
      }
      if outcome.notRepairable {
        let text = "not repaired: the rows themselves must be corrected first (see below)"
        try Console.out(FittedText.fit(text, width: layout.resolved))
      }
    }
    if format == .json {
      let problems = report.problems.map {
        JSONReport.Problem(
          kind: $0.kind.rawValue, table: $0.table, expenseIds: $0.rowIDs, rowCount: $0.rowCount, months: $0.months,
          message: $0.message, repairable: $0.isRepairable)
      }
      let json = JSONReport(
        database: file, healthy: report.isHealthy, repaired: rebuilt, integrity: report.integrity,
        expenseCount: report.expenseCount, rollupsChecked: report.rollupsChecked, problems: problems,
        carries: outcome.carries)
      try Console.out(try SafeJSON.text(json) + "\n")
    } else {
      // Wrapped, never cut: a long path or a hint stays whole at any width.
      let lines =
        ["database: \(path)"] + CheckCommand.lines(report, repairing: repair) + CheckCommand.lines(outcome.carries)
      try Console.out(FittedText.fit(lines.joined(separator: "\n"), width: layout.resolved))
    }
    if !report.isHealthy {
      throw CLIFailure(message: CheckCommand.verdict(report, path: path), kind: .damagedDatabase)
    }
  }

  /// The report in words: what was checked, then one line per problem with what to do.
  static func lines(_ report: CheckReport, repairing: Bool) -> [String] {
    var lines: [String] = []
    if report.integrity.isEmpty {
      lines.append("integrity: ok")
    } else {
      lines.append("integrity: \(report.integrity.count) problem\(report.integrity.count == 1 ? "" : "s")")
      for message in report.integrity.prefix(20) { lines.append("  " + TerminalText.sanitize(message)) }
      lines.append("  (the other checks were not run: the file itself is damaged)")
      return lines
    }
    let foreign = report.problems.filter { $0.kind == .foreignKey }
    lines.append(foreign.isEmpty ? "foreign keys: ok" : "foreign keys: \(foreign.count) broken")
    for problem in foreign { lines.append("  " + TerminalText.sanitize(problem.message)) }
    let values = report.problems.filter { $0.kind == .unreadable }
    lines.append(
      values.isEmpty
        ? "stored values: ok (\(report.expenseCount) expenses)"
        : "stored values: \(values.count) problem\(values.count == 1 ? "" : "s")")
    for problem in values { lines.append("  " + describe(problem)) }
    for table in report.rollupsChecked {
      let found = report.problems.filter { $0.table == table && ($0.kind == .rollupOutOfStep || $0.kind == .overflow) }
      if found.isEmpty { lines.append("rollup \(table): ok") }
      for problem in found {
        lines.append("rollup " + describe(problem))
        if problem.kind == .rollupOutOfStep && !repairing {
          lines.append("  run 'expenses check --repair' to rebuild it from the expenses")
        }
      }
    }
    return lines
  }

  /// One line per carry under rollover: what reports show, and whether the rows give it too.
  static func lines(_ carries: [ExpenseService.CarryCheck]) -> [String] {
    carries.map { carry in
      let currency = Currency(code: carry.currency) ?? .usd
      let shown = Money(minor: carry.carriedInMinor, currency: currency).formatted
      let name = TerminalText.sanitize(carry.category)
      let sign = carry.carriedInMinor > 0 ? "+" : ""
      if carry.matches { return "carry \(name) into \(carry.month): \(sign)\(shown), the rows agree" }
      let rows = Money(minor: carry.fromRowsMinor, currency: currency).formatted
      return "carry \(name) into \(carry.month): \(sign)\(shown), but the rows give \(rows)"
    }
  }

  static func describe(_ problem: CheckProblem) -> String {
    var text = "\(problem.table): \(problem.message)"
    if !problem.rowIDs.isEmpty {
      let more = problem.rowCount > problem.rowIDs.count ? " and \(problem.rowCount - problem.rowIDs.count) more" : ""
      text +=
        "; expense id\(problem.rowIDs.count == 1 ? "" : "s") "
        + problem.rowIDs.map(String.init).joined(separator: ", ") + more
    }
    if !problem.months.isEmpty {
      let shown = problem.months.prefix(12).map(TerminalText.sanitize).joined(separator: ", ")
      text += "; month\(problem.months.count == 1 ? "" : "s") " + shown + (problem.months.count > 12 ? ", …" : "")
    }
    return text
  }

  /// The one-line verdict on stderr when something is wrong, with the way out.
  static func verdict(_ report: CheckReport, path: String) -> String {
    if !report.integrity.isEmpty {
      return "\(path) is damaged; restore a backup with 'expenses restore FILE'"
    }
    if report.problems.allSatisfy(\.isRepairable) {
      return "\(path) has monthly totals out of step; 'expenses check --repair' rebuilds them"
    }
    return
      "\(path) has stored values expenses cannot read; correct or delete those rows (sqlite3), or restore a backup"
  }
}
