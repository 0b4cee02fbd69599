/// A plain table of text columns for listings (`sections`, `budget list`, `rules list`,
/// `imports`, `token list`, `categories`): cells sanitized, columns padded by terminal cells (so
/// wide characters line up), two spaces between columns. When the table is wider than `width`,
/// each row is printed as a block instead: its first cell, then indented `header: value` lines,
/// each word-wrapped to the width with nothing cut off (`FittedText`).
public struct ColumnTable: Sendable {
  public var header: [String]
  public var rows: [[String]]

  public init(header: [String], rows: [[String]]) {
    self.header = header
    self.rows = rows
  }

  /// The table, each line ending with a line break. Cells longer than `maxCell` cells are
  /// shortened with an ellipsis.
  public func render(width: Int = .max, maxCell: Int = 40) -> String {
    let full = ([header] + rows).map { row in row.map { TerminalText.sanitize($0) } }
    let cells = full.map { row in row.map { DisplayWidth.truncate($0, to: maxCell, ellipsis: "…") } }
    let columns = header.count
    var widths = [Int](repeating: 0, count: columns)
    for row in cells {
      for (index, cell) in row.enumerated() where index < columns {
        widths[index] = max(widths[index], DisplayWidth.of(cell))
      }
    }
    let total = widths.reduce(0, +) + 2 * max(0, columns - 1)
    if total <= width { return cells.map { line($0, widths) }.joined() }
    // Too wide: one block per row, every line wrapped to the width, whole cells.
    var text = ""
    for row in full.dropFirst() {
      for (index, cell) in row.enumerated() where index < columns {
        let label = index == 0 ? "" : "  " + full[0][index] + ": "
        for line in FittedText.fit(line: label + cell, width: width) { text += line + "\n" }
      }
    }
    return text
  }

  private func line(_ row: [String], _ widths: [Int]) -> String {
    var text = ""
    for (index, cell) in row.enumerated() where index < widths.count {
      let last = index == widths.count - 1
      text += cell
      if !last { text += String(repeating: " ", count: widths[index] - DisplayWidth.of(cell) + 2) }
    }
    return text + "\n"
  }
}
