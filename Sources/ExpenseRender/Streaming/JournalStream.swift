import ExpenseCore

/// `expenses export` one row at a time: the bytes of `LedgerRenderer.render` or
/// `BeancountRenderer.render`, in two passes over the same rows instead of one array.
///
/// The header declares every account, currency and (beancount) the first date before any
/// transaction, so the rows are read twice: `measure` each (any order), `writeHeader`, then
/// `write` each in date order. A transaction whose description and source are simple text
/// (`SimpleText`) is written as bytes, the accounts looked up by the row's bytes (`PostingCache`); any other goes
/// through the renderer's own `transactionLines`. The caller must show both passes the same
/// rows (one snapshot).
public struct JournalStream {
  public enum Format: Sendable {
    case ledger, beancount
  }

  public let format: Format
  /// Kinds, budgets and the period's first day; its `expenses` stay empty.
  private let input: ExportInput
  private var accounts = JournalAccounts()
  private var paths = PostingCache<(counter: AccountPath, asset: AccountPath)>()
  private var names: AccountNames?
  private var spelled = PostingCache<(counter: String, asset: String)>()
  private var lastCurrency: Currency?
  /// Whether a line was written: the output is lines joined by newlines, as `render` joins them.
  private var wroteLine = false
  /// A row's tags: a `; tag:` comment line each in a ledger journal, `#tag` on the beancount
  /// transaction's line.
  public var tags: ((ExpenseRow) -> [String])? = nil

  public init(
    format: Format, kinds: [String: CategoryKind], budgets: [Budget], periods: [CategoryPeriod] = [],
    firstDay: CivilDate?, defaultAccount: String = "Bank"
  ) {
    self.format = format
    self.input = ExportInput(
      expenses: [], kinds: kinds, budgets: budgets, periods: periods, firstDay: firstDay,
      defaultAccount: defaultAccount)
  }

  /// First pass: one row, in any order.
  public mutating func measure(_ row: ExpenseRow) {
    if lastCurrency != row.amount.currency {
      accounts.currencies.insert(row.amount.currency)
      lastCurrency = row.amount.currency
    }
    accounts.add(date: row.date)
    let input = self.input
    // The accounts go into the header's set once, when their bytes are first seen.
    var fresh: (counter: AccountPath, asset: AccountPath)?
    _ = paths.value(category: row.category, account: row.account, moneyIn: moneyIn(row)) {
      let p = input.posting(
        Expense(
          date: row.date, amount: row.amount, description: "", category: row.category.map(ExpenseRow.string),
          account: row.account.map(ExpenseRow.string)))
      fresh = p
      return p
    }
    if let fresh {
      accounts.paths.insert(fresh.counter)
      accounts.paths.insert(fresh.asset)
    }
  }

  /// Ends the first pass: writes the header.
  public mutating func writeHeader(into out: inout OutputBuffer) {
    let (lines, names) =
      switch format {
      case .ledger: LedgerRenderer().headerLines(accounts, input)
      case .beancount: BeancountRenderer().headerLines(accounts, input)
      }
    self.names = names
    for line in lines { appendLine(line, into: &out) }
  }

  /// Second pass: one row's transaction, in date order.
  public mutating func write(_ row: ExpenseRow, into out: inout OutputBuffer) {
    guard let names else { return }
    let tags = self.tags?(row) ?? []
    // Simple text: the renderers' `Character`-wise edits (`;` to `,`, escaping `"` and `\`,
    // trimming spaces) are the same edits on the bytes.
    let simple =
      SimpleText.width(row.description) != nil && (row.sourceFile.map { SimpleText.width($0) != nil } ?? true)
    guard simple else {
      var expense = row.expense
      expense.tags = tags
      let lines =
        switch format {
        case .ledger: LedgerRenderer().transactionLines(expense, input, names)
        case .beancount: BeancountRenderer().transactionLines(expense, input, names)
        }
      for line in lines { appendLine(line, into: &out) }
      return
    }
    let input = self.input
    let accountNames = spelled.value(category: row.category, account: row.account, moneyIn: moneyIn(row)) {
      let p = input.posting(
        Expense(
          date: row.date, amount: row.amount, description: "", category: row.category.map(ExpenseRow.string),
          account: row.account.map(ExpenseRow.string)))
      return (names[p.counter], names[p.asset])
    }
    switch format {
    case .ledger: writeLedger(row, accountNames, tags, into: &out)
    case .beancount: writeBeancount(row, accountNames, tags, into: &out)
    }
  }

  /// The one case where the sign picks the account: money in without a category.
  private func moneyIn(_ row: ExpenseRow) -> Bool { row.category == nil && row.amount.minor > 0 }

  /// `LedgerRenderer.transactionLines` of a row of simple text.
  private mutating func writeLedger(
    _ row: ExpenseRow, _ accounts: (counter: String, asset: String), _ tags: [String], into out: inout OutputBuffer
  ) {
    startLine(into: &out)
    appendDate(row.date, into: &out)
    out.append(" *" as StaticString)
    if let id = row.id {
      out.append(" (" as StaticString)
      out.appendInteger(id)
      out.append(UInt8(ascii: ")"))
    }
    out.append(UInt8(ascii: " "))
    // `LedgerRenderer.description`: a `;` would start a comment.
    var start = 0
    for index in 0..<row.description.count where row.description[index] == UInt8(ascii: ";") {
      out.append(UnsafeBufferPointer(rebasing: row.description[start..<index]))
      out.append(UInt8(ascii: ","))
      start = index + 1
    }
    out.append(UnsafeBufferPointer(rebasing: row.description[start...]))
    // The head is trimmed: an empty or space-ended description leaves no trailing space.
    while out.last == UInt8(ascii: " ") { out.removeLast(1) }
    if let file = row.sourceFile {
      startLine(into: &out)
      out.append("    ; source: " as StaticString)
      out.append(file)
      out.append(UInt8(ascii: ":"))
      out.appendInteger(Int64(row.sourceLine))
    }
    for tag in tags {
      startLine(into: &out)
      out.append("    ; " as StaticString)
      out.append(tag)
      out.append(UInt8(ascii: ":"))
    }
    writePostings(row, accounts, indent: "    ", into: &out)
  }

  /// `BeancountRenderer.transactionLines` of a row of simple text.
  private mutating func writeBeancount(
    _ row: ExpenseRow, _ accounts: (counter: String, asset: String), _ tags: [String], into out: inout OutputBuffer
  ) {
    startLine(into: &out)
    appendDate(row.date, into: &out)
    out.append(" * " as StaticString)
    out.appendBackslashQuoted(row.description)
    for tag in tags {
      out.append(" #" as StaticString)
      out.append(tag)
    }
    if let id = row.id {
      startLine(into: &out)
      out.append("  id: " as StaticString)
      out.appendInteger(id)
    }
    if let file = row.sourceFile {
      startLine(into: &out)
      out.append("  source: " as StaticString)
      // `BeancountRenderer.string("file:line")`: the line number has nothing to escape, so it
      // goes inside the quoted file name.
      out.appendBackslashQuoted(file)
      out.removeLast(1)
      out.append(UInt8(ascii: ":"))
      out.appendInteger(Int64(row.sourceLine))
      out.append(UInt8(ascii: "\""))
    }
    writePostings(row, accounts, indent: "  ", into: &out)
  }

  /// The two postings and the empty line that ends a transaction.
  private mutating func writePostings(
    _ row: ExpenseRow, _ accounts: (counter: String, asset: String), indent: StaticString,
    into out: inout OutputBuffer
  ) {
    let amount = row.amount
    startLine(into: &out)
    out.append(indent)
    out.append(accounts.counter)
    out.append("  " as StaticString)
    // `negatedDecimalString`: the sign flipped, zero unsigned.
    if amount.minor > 0 { out.append(UInt8(ascii: "-")) }
    out.appendAmount(amount.minor, minorUnits: amount.currency.minorUnits, signed: false)
    out.append(UInt8(ascii: " "))
    out.append(amount.currency.code)
    startLine(into: &out)
    out.append(indent)
    out.append(accounts.asset)
    out.append("  " as StaticString)
    out.appendAmount(amount.minor, minorUnits: amount.currency.minorUnits)
    out.append(UInt8(ascii: " "))
    out.append(amount.currency.code)
    startLine(into: &out)
  }

  /// The newline before every line but the first.
  private mutating func startLine(into out: inout OutputBuffer) {
    if wroteLine { out.append(UInt8(ascii: "\n")) }
    wroteLine = true
  }

  private mutating func appendLine(_ line: String, into out: inout OutputBuffer) {
    startLine(into: &out)
    out.append(line)
  }
}
