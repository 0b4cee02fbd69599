import ExpenseCore

/// `expenses list` (text) one row at a time: the bytes of `ExpenseListRenderer.render`, in two
/// passes over the same rows instead of one array.
///
/// The table's columns are as wide as their widest cell, so the rows are read twice: `measure`
/// each row (any order; `ExpenseListMeasure`; a narrow table may ask for a second measuring
/// pass, `needsShortAmounts`), then `writeHeader` chooses the layout exactly as `render` does
/// (the same attempts, the same `Table` arithmetic on the measured widths), and `write` prints
/// each row in order. A row whose texts are simple (`SimpleText`: each scalar its own cluster
/// of one or two cells) is cut and padded as bytes; any other row goes through `Table.render`
/// and the width check of `render` itself. The caller must show both passes the same rows (one
/// snapshot).
public struct ExpenseListStream {
  public let renderer: ExpenseListRenderer
  private var measured = ExpenseListMeasure()
  private var layout: Layout?
  private let glyphs: Glyphs
  private let ellipsisWidth: Int
  /// The table laid out by `writeHeader` (none for cards).
  private var table: Table?
  /// The amount prefix of the last currency written.
  private var prefix: ListAmountPrefix?

  /// How the rows are printed, decided once all are measured.
  enum Layout {
    /// A table: the long or short date, with or without the category, full or short amounts.
    case table(widths: [Int], longDate: Bool, withCategory: Bool, amounts: Amounts)
    /// Two lines per expense, for widths where no table fits.
    case cards(amounts: Amounts)
    /// No rows at all.
    case empty
  }

  public init(renderer: ExpenseListRenderer) {
    self.renderer = renderer
    self.glyphs = Glyphs(renderer.glyphs)
    self.ellipsisWidth = DisplayWidth.of(glyphs.ellipsis)
  }

  private var width: Int { max(1, renderer.width) }

  private func amounts(short: Bool) -> Amounts { Amounts(ascii: glyphs.ascii, short: short, dash: glyphs.dash) }

  /// First pass: one row, in any order.
  public mutating func measure(_ row: ExpenseRow) {
    measured.add(row, renderer: renderer)
  }

  /// After the first pass: whether the table needs its short amounts measured, in a second
  /// pass of `measureShortAmount` (only when no table with full amounts fits the width).
  public var needsShortAmounts: Bool {
    measured.rows > 0 && tableWithAmounts(short: false) == nil
  }

  /// Second measuring pass (see `needsShortAmounts`): one row, in any order.
  public mutating func measureShortAmount(_ row: ExpenseRow) {
    measured.addShortAmount(row, renderer: renderer, shortAmounts: amounts(short: true))
  }

  /// The first table of `render`'s attempts that fits with full or short amounts.
  private func tableWithAmounts(short: Bool) -> (Table, [Int], longDate: Bool, withCategory: Bool)? {
    let compact = WindowSize(width: renderer.width) == .compact
    let amountWidth = measured.amountWidth(renderer: renderer, amounts(short: short))
    for (longDate, withCategory) in [(!compact, true), (false, true), (false, false)] {
      let table = Table(
        columns: columns(longDate: longDate, withCategory: withCategory, amountWidth: amountWidth),
        ellipsis: glyphs.ellipsis)
      if let widths = table.widths(width: width) { return (table, widths, longDate, withCategory) }
    }
    return nil
  }

  /// Ends the measuring: lays the table out and writes its header (or `No expenses.`).
  public mutating func writeHeader(into out: inout OutputBuffer) {
    guard measured.rows > 0 else {
      layout = .empty
      out.append("No expenses.\n" as StaticString)
      return
    }
    for short in [false, true] {
      if let (table, widths, longDate, withCategory) = tableWithAmounts(short: short) {
        self.table = table
        layout = .table(widths: widths, longDate: longDate, withCategory: withCategory, amounts: amounts(short: short))
        appendLine(table.render(row: table.columns.map(\.header), widths: widths), into: &out)
        return
      }
    }
    layout = .cards(amounts: amounts(short: true))
  }

  /// The columns of `ExpenseListRenderer.lines`, without cells, measured by the first pass.
  private func columns(longDate: Bool, withCategory: Bool, amountWidth: Int) -> [Table.Column] {
    func column(_ header: String, _ cells: Int, _ align: Table.Align, flexible: Bool = false, min: Int = 0)
      -> Table.Column
    {
      var column = Table.Column(header: header, cells: [], align: align, flexible: flexible, minWidth: min)
      column.cellsWidth = cells
      column.headerWidth = DisplayWidth.of(header)
      return column
    }
    var columns = renderer.ids ? [column("Id", measured.idWidth, .right)] : []
    columns += [
      column("Date", longDate ? measured.longDateWidth : measured.shortDateWidth, .left),
      column("Description", measured.descriptionWidth, .left, flexible: true, min: 12),
    ]
    if withCategory { columns.append(column("Category", measured.categoryWidth, .left, flexible: true, min: 8)) }
    columns.append(column("Amount", amountWidth, .right))
    return columns
  }

  /// Second pass: one row's line(s), in the list's order.
  public mutating func write(_ row: ExpenseRow, into out: inout OutputBuffer) {
    switch layout {
    case .table(let widths, let longDate, let withCategory, let a):
      if writeSimpleRow(row, widths: widths, longDate: longDate, withCategory: withCategory, a, into: &out) { return }
      var cells = renderer.ids ? [row.id.map(String.init) ?? ""] : []
      cells += [
        renderer.date(row.date, long: longDate), TerminalText.sanitize(ExpenseRow.string(row.description)),
      ]
      if withCategory { cells.append(TerminalText.sanitize(row.category.map(ExpenseRow.string) ?? uncategorizedName)) }
      cells.append(renderer.signed(row.amount, a))
      if let table { appendLine(table.render(row: cells, widths: widths), into: &out) }
    case .cards(let a):
      let description = TerminalText.sanitize(ExpenseRow.string(row.description))
      let category = TerminalText.sanitize(row.category.map(ExpenseRow.string) ?? uncategorizedName)
      appendLine(
        TextLayout.spread(
          renderer.date(row.date, long: false), renderer.signed(row.amount, a), width: width,
          ellipsis: glyphs.ellipsis), into: &out)
      let text = renderer.cardPrefix(row.id) + description + " (" + category + ")"
      appendLine("  " + DisplayWidth.truncate(text, to: width - 2, ellipsis: glyphs.ellipsis), into: &out)
    case .empty, nil:
      break
    }
  }

  /// A line as `render` ends it: cut to the width if it measures wider, then a newline.
  private func appendLine(_ line: String, into out: inout OutputBuffer) {
    out.append(
      DisplayWidth.of(line) <= width ? line : DisplayWidth.truncate(line, to: width, ellipsis: glyphs.ellipsis))
    out.append(UInt8(ascii: "\n"))
  }

  /// The table row of a row whose description and category are simple text (`SimpleText`)
  /// and whose amount has a simple prefix, written as bytes: what `Table.render` makes of it.
  /// False, writing nothing, for any other row.
  private mutating func writeSimpleRow(
    _ row: ExpenseRow, widths: [Int], longDate: Bool, withCategory: Bool, _ a: Amounts,
    into out: inout OutputBuffer
  ) -> Bool {
    guard let descriptionWidth = SimpleText.width(row.description) else { return false }
    var categoryWidth = 0
    if withCategory, let category = row.category {
      guard let width = SimpleText.width(category) else { return false }
      categoryWidth = width
    }
    if prefix?.currency != row.amount.currency { prefix = ListAmountPrefix(row.amount.currency, a) }
    guard let prefix, let amountWidth = prefix.cellWidth(row.amount.minor, a) else { return false }
    let start = out.count
    var column = 0
    if renderer.ids {
      if let id = row.id {
        out.appendSpaces(widths[0] - ExpenseListMeasure.digits(id))
        out.appendInteger(id)
      } else {
        out.appendSpaces(widths[0])
      }
      out.appendSpaces(2)
      column += 1
    }
    let dateStart = out.count
    if longDate { appendDate(row.date, into: &out) } else { appendShortDate(row.date, into: &out) }
    out.appendSpaces(widths[column] - (out.count - dateStart))
    column += 1
    out.appendSpaces(2)
    appendCell(row.description, descriptionWidth, widths[column], into: &out)
    column += 1
    if withCategory {
      out.appendSpaces(2)
      if let category = row.category {
        appendCell(category, categoryWidth, widths[column], into: &out)
      } else {
        var name = uncategorizedName
        name.withUTF8 { appendCell($0, $0.count, widths[column], into: &out) }
      }
      column += 1
    }
    out.appendSpaces(2)
    out.appendSpaces(widths[column] - amountWidth)
    prefix.write(row.amount.minor, into: &out)
    while out.count > start && out.last == UInt8(ascii: " ") { out.removeLast(1) }
    out.append(UInt8(ascii: "\n"))
    return true
  }

  private func appendCell(
    _ bytes: UnsafeBufferPointer<UInt8>, _ width: Int, _ cells: Int, into out: inout OutputBuffer
  ) {
    SimpleText.appendCell(
      bytes, width: width, cells: cells, ellipsis: glyphs.ellipsis, ellipsisWidth: ellipsisWidth, into: &out)
  }

  /// `ExpenseListRenderer.date(_, long: false)`: `Oct  5`.
  private func appendShortDate(_ date: CivilDate, into out: inout OutputBuffer) {
    out.append(date.calendarMonth.shortName)
    out.append(UInt8(ascii: " "))
    if date.day < 10 { out.append(UInt8(ascii: " ")) }
    out.appendInteger(Int64(date.day))
  }
}

/// A list amount cell (`ExpenseListRenderer.signed`: `-$1,234.50`, `+€12.00`) written as bytes,
/// for a currency whose prefix (its symbol, or its code and a space) is all one-cell scalars:
/// then the cell is as wide as it has scalars, and it can be padded without measuring.
struct ListAmountPrefix {
  let currency: Currency
  /// The symbol or code the amount starts with (after its sign); nil when the fast path does
  /// not apply.
  let prefix: String?
  /// `prefix`'s width in cells (its number of scalars).
  let width: Int

  init(_ currency: Currency, _ a: Amounts) {
    self.currency = currency
    let symbol = currency.symbol
    let text: String
    if let symbol, !(a.ascii && !DisplayWidth.isPlainASCII(symbol)) {
      text = symbol
    } else {
      text = currency.code + " "
    }
    let scalars = text.unicodeScalars
    let simple =
      text.count == scalars.count
      && scalars.allSatisfy { DisplayWidth.scalarWidth($0.value) == 1 && !TerminalText.isBidiControl($0.value) }
    prefix = simple ? text : nil
    width = scalars.count
  }

  /// The cell's width, or nil when the amount is written the general way (a short amount of
  /// 10,000 major units or more, or a prefix with wide or joining scalars).
  func cellWidth(_ minor: Int64, _ a: Amounts) -> Int? {
    guard prefix != nil else { return nil }
    let whole = minor.magnitude / UInt64(currency.scale)
    if a.short && whole >= 10_000 { return nil }
    var digits = 1
    var rest = whole / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    let fraction = currency.minorUnits > 0 ? 1 + currency.minorUnits : 0
    return (minor != 0 ? 1 : 0) + width + digits + (digits - 1) / 3 + fraction
  }

  /// Writes the cell (`cellWidth` must have accepted the amount).
  func write(_ minor: Int64, into out: inout OutputBuffer) {
    if minor > 0 { out.append(UInt8(ascii: "+")) } else if minor < 0 { out.append(UInt8(ascii: "-")) }
    if let prefix { out.append(prefix) }
    out.appendAmount(minor, minorUnits: currency.minorUnits, grouped: true, signed: false)
  }
}
