import ExpenseCore
import Foundation

/// The report as JSON for other tools: pretty-printed, keys sorted (so the bytes are stable),
/// every optional field present with an explicit `null`.
///
/// Top level: `month`, `today`, `daysInMonth`, `daysElapsed`, `daysLeft`, `expenseCount`,
/// `groups` (ExpenseCore's encoding of `CurrencyGroup`), `sections`, `expenses`, `trends`.
/// `expenses` and `trends` are null only when the report was built without them (a terminal
/// report of folded sections); the service always builds them for JSON, so what a script
/// receives never depends on a saved display state. Each expense is an `ExpenseResource`, the
/// object `list` prints and the API serves.
/// A section's `collapsible` never depends on the terminal: it is the section's definition
/// (`summary` false, the others true), with `collapsibleIn` = `never`, `compact` or `always`.
/// `itemCount`: summary = currency groups, category-performance = categories over all groups,
/// expenses = the month's transaction count, trends = months.
public struct JSONRenderer {
  public let sections: SectionStates

  public init(sections: SectionStates) { self.sections = sections }

  public func render(_ report: BudgetReport) -> String {
    let document = Document(report: report, sections: sections)
    guard let text = try? SafeJSON.text(document) else { return "{}\n" }
    return text + "\n"
  }

  /// The report's JSON without its expense rows, cut where they go, for a writer that streams
  /// them (`ExpenseJSONStream(depth: 1)`): `head` ends with `"expenses" : `, `tail` begins with
  /// the comma after the array. `report.expenses` is not read. `nil` only if the document could
  /// not be encoded at all (then `render` prints `{}`).
  ///
  /// Why the cut is safe: the encoder writes one top-level member per line, indented by two
  /// spaces, and a string value never holds a raw line break, so the line of the `expenses`
  /// member is found exactly once.
  public func renderAround(_ report: BudgetReport) -> (head: String, tail: String)? {
    var document = report
    document.expenses = nil
    guard let text = try? SafeJSON.text(Document(report: document, sections: sections)) else { return nil }
    let member = "\n  \"expenses\" : null,\n"
    guard let cut = text.range(of: member) else { return nil }
    return (String(text[..<cut.lowerBound]) + "\n  \"expenses\" : ", ",\n" + String(text[cut.upperBound...]) + "\n")
  }

  struct Document: Encodable {
    var report: BudgetReport
    var sections: SectionStates

    enum Keys: String, CodingKey {
      case month, today, daysInMonth, daysElapsed, daysLeft, expenseCount, groups, sections, expenses, trends
      case firstMonthWithData, latestMonthWithData, goals, accounts, recurring, tags
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: Keys.self)
      try c.encode(report.month, forKey: .month)
      try c.encode(report.today, forKey: .today)
      try c.encode(report.daysInMonth, forKey: .daysInMonth)
      try c.encode(report.daysElapsed, forKey: .daysElapsed)
      try c.encode(report.daysLeft, forKey: .daysLeft)
      try c.encode(report.expenseCount, forKey: .expenseCount)
      try c.encode(report.groups, forKey: .groups)
      try c.encode(SectionID.allCases.map { SectionEntry(id: $0, report: report, states: sections) }, forKey: .sections)
      try c.encode(report.expenses.map { $0.map(ExpenseResource.init) }, forKey: .expenses)
      try c.encode(report.trends, forKey: .trends)
      try c.encode(report.goals, forKey: .goals)
      try c.encode(report.accounts, forKey: .accounts)
      try c.encode(report.recurring, forKey: .recurring)
      try c.encode(report.tags, forKey: .tags)
      try c.encode(report.firstMonthWithData, forKey: .firstMonthWithData)
      try c.encode(report.latestMonthWithData, forKey: .latestMonthWithData)
    }
  }

  struct SectionEntry: Encodable {
    var id: String
    var title: String
    var collapsible: Bool
    var collapsibleIn: Collapsibility
    var expanded: Bool
    var itemCount: Int

    init(id: SectionID, report: BudgetReport, states: SectionStates) {
      self.id = id.rawValue
      title = id.title
      collapsibleIn = id.collapsibility
      collapsible = id.collapsibility != .never
      expanded = id.collapsibility == .never || states.isExpanded(id)
      switch id {
      case .summary: itemCount = report.groups.count
      case .categoryPerformance: itemCount = report.categoryCount
      case .goals: itemCount = report.goals.count
      case .accounts: itemCount = report.accounts.count
      case .recurring: itemCount = report.recurring.count
      case .tags: itemCount = Set(report.tags.map(\.tag)).count
      case .expenses: itemCount = report.expenseCount
      case .trends: itemCount = report.trends?.months.count ?? 6
      }
    }
  }
}
