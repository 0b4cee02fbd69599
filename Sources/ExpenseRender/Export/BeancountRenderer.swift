import ExpenseCore

/// Expenses and budgets as a beancount ledger (`expenses export --format beancount`).
///
/// Every account is opened on the first date of the file; one transaction per expense (flag
/// `*`, the description as narration, `id` and `source` metadata) with both postings written
/// out: `Expenses:CATEGORY` (or `Income:`, `Assets:Transfers:` by the category's kind, see
/// `ExportInput.posting`) against `Assets:ACCOUNT`. Amounts are exact decimals in the
/// currency's ISO digits; the ISO code is the commodity. Budgets are Fava's
/// `custom "budget" ACCOUNT "monthly" AMOUNT` entries (`"quarterly"`, `"yearly"` for a budget
/// by the period): a default from the first date, an override on its month's (or period's)
/// first day and the default (or 0) again on the next one's.
public struct BeancountRenderer: JournalRenderer {
  public init() {}

  public func render(_ input: ExportInput) -> String { renderJournal(input) }

  /// The file's lines before the transactions: commodities, account openings and budgets, and
  /// the name of every account the rows and budgets use.
  func headerLines(_ accounts: JournalAccounts, _ input: ExportInput) -> ([String], AccountNames) {
    var paths = accounts.paths
    let budgets = input.budgets.filter { input.kind(of: $0.category) == .expense }
    for b in budgets { paths.insert(AccountPath(root: .expenses, name: b.category)) }
    let names = AccountNames(paths, spell: BeancountRenderer.spell, component: BeancountRenderer.component)
    let start = input.startDay(earliestExpense: accounts.earliest)

    var out = ["; Exported by expenses: expenses, income and transfers by category kind; budgets for Fava.", ""]
    let currencies = accounts.currencies.union(budgets.map(\.amount.currency)).sorted()
    for currency in currencies { out.append("\(start) commodity \(currency.code)") }
    for account in Set(names.spelled.values).sorted() { out.append("\(start) open \(account)") }
    out.append("")

    var budgetLines: [(CivilDate, String)] = []
    let periods = BudgetPeriods.periods(budgets, lengths: input.periods)
    for period in periods {
      let account = names[AccountPath(root: .expenses, name: period.category)]
      let from = period.range.from?.firstDay ?? start
      let amount = "\(period.amount.decimalString) \(period.amount.currency.code)"
      budgetLines.append((from, "\(from) custom \"budget\" \(account) \"\(period.interval)\" \(amount)"))
      if let until = period.range.until, period.range.from != nil,
        !periods.contains(where: {
          $0.category == period.category && $0.amount.currency == period.amount.currency && $0.range.from == until
        })
      {
        // An override with no default after it: the budget ends with its month.
        budgetLines.append(
          (
            until.firstDay,
            "\(until.firstDay) custom \"budget\" \(account) \"\(period.interval)\" 0 \(period.amount.currency.code)"
          ))
      }
    }
    for (_, line) in budgetLines.sorted(by: { $0.0 < $1.0 }) { out.append(line) }
    if !budgetLines.isEmpty { out.append("") }
    return (out, names)
  }

  /// One expense's transaction, its last line empty.
  func transactionLines(_ e: Expense, _ input: ExportInput, _ names: AccountNames) -> [String] {
    let p = input.posting(e)
    var out = ["\(e.date) * \(BeancountRenderer.string(e.description))" + e.tags.map { " #\($0)" }.joined()]
    if let id = e.id { out.append("  id: \(id)") }
    if let source = e.source { out.append("  source: \(BeancountRenderer.string("\(source.file):\(source.line)"))") }
    let code = e.amount.currency.code
    out.append("  \(names[p.counter])  \(e.amount.negatedDecimalString) \(code)")
    out.append("  \(names[p.asset])  \(e.amount.decimalString) \(code)")
    out.append("")
    return out
  }

  static func spell(_ root: AccountPath.Root, _ name: String) -> String {
    switch root {
    case .assets: return "Assets:" + name
    case .transfers: return "Assets:Transfers:" + name
    case .income: return "Income:" + name
    case .expenses: return "Expenses:" + name
    }
  }

  /// A name as one beancount account component (beancount's `[\p{Lu}\p{Nd}][\p{L}\p{Nd}-]*`):
  /// letters of any script and decimal digits kept, every other run of characters one `-`, no
  /// leading or trailing `-`, a lower-case first letter capitalised; a name that still cannot
  /// start with a capital or a digit (`東京` is a letter without case) gets an `X` in front. A
  /// name with no letter or digit (only emoji) becomes `U` and its code points (`U1F355`), so
  /// it stays distinct.
  static func component(_ raw: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in TerminalText.sanitize(raw).unicodeScalars {
      if isLetter(scalar) || scalar.properties.generalCategory == .decimalNumber {
        out.append(scalar)
      } else if let last = out.last, last != "-" {
        out.append("-")
      }
    }
    while out.last == "-" { out.removeLast() }
    guard let first = out.first else {
      let codes = raw.unicodeScalars.prefix(8).map { String($0.value, radix: 16, uppercase: true) }
      return "U" + codes.joined(separator: "-")
    }
    var text = String(out)
    if first.properties.generalCategory == .lowercaseLetter {
      let upper = String(first).uppercased()
      if upper.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .uppercaseLetter }) {
        text = upper + String(String.UnicodeScalarView(out.dropFirst()))
      }
    }
    let head = text.unicodeScalars.first!.properties.generalCategory
    if head != .uppercaseLetter && head != .decimalNumber { text = "X" + text }
    return text
  }

  static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
    default: return false
    }
  }

  /// A beancount string: one line, `\` and `"` escaped.
  static func string(_ raw: String) -> String {
    var out = "\""
    for c in TerminalText.sanitize(raw) {
      if c == "\"" || c == "\\" { out.append("\\") }
      out.append(c)
    }
    return out + "\""
  }
}
