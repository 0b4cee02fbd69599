import ExpenseCore

/// Expenses and budgets as a Ledger/hledger journal (`expenses export --format ledger`).
///
/// One transaction per expense, dated, with the expense id as its code and the source line as a
/// `source:` tag: `expenses:CATEGORY` (or `income:`, `assets:Transfers:` by the category's kind,
/// see `ExportInput.posting`) against `assets:ACCOUNT`, both amounts written out. Amounts are
/// exact: the stored minor units with the currency's ISO decimals (`54.20 USD`, `1500 JPY`,
/// `1.250 BHD`) and a `commodity` directive per currency that fixes `.` as the decimal mark.
/// Budgets are periodic transactions (`~ monthly`) against `assets`; a month's override is its
/// own `~ monthly from M to M+1` and the default is split around it, so no month counts twice;
/// a quarterly or yearly budget is `~ quarterly` or `~ yearly` (its moves: the period's own
/// `~ yearly from Y-01-01 to Y+1-01-01`).
/// Only budgets of spending categories are written (the report ignores the others).
public struct LedgerRenderer: JournalRenderer {
  public init() {}

  public func render(_ input: ExportInput) -> String { renderJournal(input) }

  /// The journal's lines before the transactions: commodities, accounts and budgets, and the
  /// name of every account the rows and budgets use.
  func headerLines(_ accounts: JournalAccounts, _ input: ExportInput) -> ([String], AccountNames) {
    var paths = accounts.paths
    let budgets = input.budgets.filter { input.kind(of: $0.category) == .expense }
    for b in budgets { paths.insert(AccountPath(root: .expenses, name: b.category)) }
    let names = AccountNames(paths, spell: LedgerRenderer.spell, component: LedgerRenderer.component)

    var out = ["; Exported by expenses: expenses, income and transfers by category kind, budgets as ~ monthly.", ""]
    let currencies = accounts.currencies.union(budgets.map(\.amount.currency)).sorted()
    for currency in currencies {
      // `format` fixes the decimal mark and digits: `1.250 BHD` is one and a quarter dinars
      // (hledger wants a decimal mark even without decimals: `1000. JPY`).
      let sample = currency.minorUnits == 0 ? "1000." : "1,000." + String(repeating: "0", count: currency.minorUnits)
      out += ["commodity \(currency.code)", "    format \(sample) \(currency.code)"]
    }
    if !currencies.isEmpty { out.append("") }
    // Each account names what it holds, so a reader (and the oracle test) can map it back.
    for (path, account) in names.spelled.sorted(by: { $0.value < $1.value }) {
      out.append(
        "account \(account)  ; \(path.special ? "unsorted money in" : "name: " + LedgerRenderer.comment(path.name))")
    }
    if !paths.isEmpty { out.append("") }

    for group in BudgetPeriods.periods(budgets, lengths: input.periods) {
      out.append("~ \(group.interval)" + group.range.ledger)
      out.append(
        "    \(names[AccountPath(root: .expenses, name: group.category)])  \(group.amount.decimalString) \(group.amount.currency.code)"
      )
      out.append("    assets")
      out.append("")
    }
    return (out, names)
  }

  /// One expense's transaction, its last line empty.
  func transactionLines(_ e: Expense, _ input: ExportInput, _ names: AccountNames) -> [String] {
    let p = input.posting(e)
    var head = "\(e.date) *"
    if let id = e.id { head += " (\(id))" }
    head += " " + LedgerRenderer.description(e.description)
    var out = [head.trimmingASCIIWhitespace()]
    if let source = e.source {
      out.append("    ; source: \(LedgerRenderer.comment("\(source.file):\(source.line)"))")
    }
    // A tag as hledger and Ledger read one: a name and a colon in a comment.
    for tag in e.tags { out.append("    ; \(tag):") }
    let code = e.amount.currency.code
    out.append("    \(names[p.counter])  \(e.amount.negatedDecimalString) \(code)")
    out.append("    \(names[p.asset])  \(e.amount.decimalString) \(code)")
    out.append("")
    return out
  }

  static func spell(_ root: AccountPath.Root, _ name: String) -> String {
    switch root {
    case .assets: return "assets:" + name
    case .transfers: return "assets:Transfers:" + name
    case .income: return "income:" + name
    case .expenses: return "expenses:" + name
    }
  }

  /// A name as one hledger/Ledger account component: made visible (`TerminalText.sanitize`),
  /// `:` (the separator), `;` (a comment), brackets and parentheses (virtual postings) and
  /// other ASCII punctuation outside `-_.,&'+/#` become `-`; runs of spaces become one (two
  /// spaces end an account name); never empty.
  static func component(_ raw: String) -> String {
    var out = ""
    for scalar in TerminalText.sanitize(raw).unicodeScalars {
      let c = Character(scalar)
      if scalar.isASCII && !(c.isLetter || c.isNumber || c == " " || "-_.,&'+/#".contains(c)) {
        out.append("-")
      } else if c.isWhitespace {
        if !out.hasSuffix(" ") { out.append(" ") }
      } else {
        out.append(c)
      }
    }
    let trimmed = out.trimmingASCIIWhitespace()
    return trimmed.isEmpty ? "Unnamed" : trimmed
  }

  /// The description on a transaction line: one line, and no `;` (which would start a comment).
  static func description(_ raw: String) -> String {
    String(TerminalText.sanitize(raw).map { $0 == ";" ? "," : $0 })
  }

  static func comment(_ raw: String) -> String { TerminalText.sanitize(raw) }
}
