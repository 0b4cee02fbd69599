import ExpenseCore

/// The `expenses list` table (date, description, category, amount), fitted to a width.
///
/// Descriptions and categories truncate with an ellipsis; amounts never do. When even that does
/// not fit, each expense becomes a two-line card. All user text is sanitized.
///
/// With `ids` each expense shows its id (an `Id` column first; `id 42` before the description
/// of a card): `list` shows them, because `edit`, `delete` and their errors ask for them.
public struct ExpenseListRenderer {
  public let width: Int
  public let glyphs: GlyphSet
  public let ids: Bool

  public init(width: Int, glyphs: GlyphSet, ids: Bool = false) {
    self.width = width
    self.glyphs = glyphs
    self.ids = ids
  }

  /// The table, one `\n`-terminated line after another.
  public func render(_ expenses: [Expense]) -> String {
    let lines = lines(expenses, details: false, plain: false)
    return lines.isEmpty ? "No expenses.\n" : lines.joined(separator: "\n") + "\n"
  }

  /// Lines for `expenses`; with `details` each row is followed by its full description
  /// (wrapped, not truncated), account and source file:line, indented.
  func lines(_ expenses: [Expense], details: Bool, plain: Bool) -> [String] {
    guard !expenses.isEmpty else { return [] }
    let w = max(1, width)
    let g = Glyphs(glyphs)
    let compact = WindowSize(width: width) == .compact
    let descriptions = expenses.map { TerminalText.sanitize($0.description) }
    let categories = expenses.map { TerminalText.sanitize($0.category ?? uncategorizedName) }
    var rows: [String]? = nil
    attempts: for short in [false, true] {
      let a = Amounts(ascii: g.ascii, short: short, dash: g.dash)
      let amounts = expenses.map { signed($0.amount, a) }
      for (longDate, withCategory) in [(!compact, true), (false, true), (false, false)] {
        var columns: [Table.Column] = ids ? [.init(header: "Id", cells: expenses.map(idCell), align: .right)] : []
        columns += [
          .init(header: "Date", cells: expenses.map { date($0.date, long: longDate) }, align: .left),
          .init(header: "Description", cells: descriptions, align: .left, flexible: true, minWidth: 12),
        ]
        if withCategory {
          columns.append(.init(header: "Category", cells: categories, align: .left, flexible: true, minWidth: 8))
        }
        columns.append(.init(header: "Amount", cells: amounts, align: .right))
        if let fitted = Table(columns: columns, ellipsis: g.ellipsis).lines(width: w) {
          rows = fitted
          break attempts
        }
      }
    }
    var out: [String] = []
    if let rows {
      out.append(rows[0])
      for (index, line) in rows.dropFirst().enumerated() {
        out.append(line)
        if details { out += detailLines(expenses[index], indent: compact ? "  " : "    ") }
      }
    } else {
      let a = Amounts(ascii: g.ascii, short: true, dash: g.dash)
      for (index, expense) in expenses.enumerated() {
        out.append(
          TextLayout.spread(date(expense.date, long: false), signed(expense.amount, a), width: w, ellipsis: g.ellipsis))
        if details {
          out += detailLines(expense, indent: "  ")
        } else {
          let text = cardPrefix(expense.id) + descriptions[index] + " (" + categories[index] + ")"
          out.append("  " + DisplayWidth.truncate(text, to: w - 2, ellipsis: g.ellipsis))
        }
      }
    }
    return out.map { DisplayWidth.of($0) <= w ? $0 : DisplayWidth.truncate($0, to: w, ellipsis: g.ellipsis) }
  }

  func detailLines(_ expense: Expense, indent: String) -> [String] {
    var lines = TextLayout.wrap(TerminalText.sanitize(expense.description), width: max(1, width), indent: indent)
    let category = TerminalText.sanitize(expense.category ?? uncategorizedName)
    lines += TextLayout.wrap("Category: " + category, width: max(1, width), indent: indent)
    if let how = expense.categorizedBy {
      lines += TextLayout.wrap("Categorized by: " + TerminalText.sanitize(how), width: max(1, width), indent: indent)
    }
    if let account = expense.account {
      lines += TextLayout.wrap("Account: " + TerminalText.sanitize(account), width: max(1, width), indent: indent)
    }
    if let source = expense.source {
      lines += TextLayout.wrap(
        "Source: \(TerminalText.sanitize(source.file)):\(source.line)", width: max(1, width), indent: indent)
    }
    return lines
  }

  /// The id column's cell: the id, or nothing for an expense not stored yet.
  func idCell(_ expense: Expense) -> String { expense.id.map(String.init) ?? "" }

  /// What a card's second line starts with: `id 42 ` with ids shown, else nothing.
  func cardPrefix(_ id: Int64?) -> String {
    guard ids, let id else { return "" }
    return "id \(id) "
  }

  /// Money out as `-$84.20`, money in (refunds, income) as `+$12.00`.
  func signed(_ amount: Money, _ a: Amounts) -> String {
    let text = a.money(amount.minor, amount.currency)
    return amount.minor > 0 ? "+" + text : text
  }

  func date(_ date: CivilDate, long: Bool) -> String {
    if long { return date.description }
    let day = date.day < 10 ? " \(date.day)" : "\(date.day)"
    return "\(date.calendarMonth.shortName) \(day)"
  }
}
