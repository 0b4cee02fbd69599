/// A table fitted to a width the way Python's Rich does it: measure every column's
/// natural width, keep fixed columns (amounts, percents) whole, and give flexible columns (names)
/// what is left, truncating them with an ellipsis. A layout that cannot fit returns `nil`, so the
/// caller can drop columns or switch layouts instead of breaking the width.
struct Table {
  enum Align { case left, right }

  struct Column {
    var header: String
    var cells: [String]
    var align: Align
    /// Truncatable (names, descriptions); others never shrink.
    var flexible: Bool = false
    /// A flexible column is never narrower than this (or its natural width, if smaller).
    var minWidth: Int = 0
    /// Spaces before the column (ignored for the first).
    var gap: Int = 2
    /// Widest cell and header, once measured (tables are re-tried with other columns).
    var cellsWidth: Int? = nil
    var headerWidth: Int? = nil

    /// The column with its widths measured, so each layout attempt reuses them. With `cap`,
    /// a cell is measured only until it is known to be wider than `cap` (a table `cap` wide
    /// lays out the same either way: such a cell is cut to fit), so a multi-megabyte cell costs
    /// a few hundred characters, not the whole text.
    func measured(cap: Int = .max) -> Column {
      var copy = self
      copy.cellsWidth = cells.reduce(0) { max($0, DisplayWidth.of($1, limit: cap)) }
      copy.headerWidth = DisplayWidth.of(header)
      return copy
    }
  }

  var columns: [Column]
  var ellipsis: String

  /// The rows (header first) as lines of at most `width` cells, or `nil` when they cannot fit.
  func lines(width: Int, header: Bool = true, style: (String) -> String = { $0 }) -> [String]? {
    guard !columns.isEmpty else { return [] }
    guard let widths = widths(width: width, header: header) else { return nil }
    let rowCount = columns.map(\.cells.count).max() ?? 0
    var out: [String] = []
    if header {
      out.append(style(render(row: columns.map(\.header), widths: widths)))
    }
    for row in 0..<rowCount {
      out.append(render(row: columns.map { row < $0.cells.count ? $0.cells[row] : "" }, widths: widths))
    }
    return out
  }

  /// Each column's width in a table at most `width` cells wide, or `nil` when it cannot fit.
  /// Columns whose `cellsWidth` and `headerWidth` are set are not measured again: a streaming
  /// renderer measures its rows in a pass of its own and lays out a table with no cells.
  func widths(width: Int, header: Bool = true) -> [Int]? {
    var widths: [Int] = []
    var minimums: [Int] = []
    for column in columns {
      let measured = column.cellsWidth == nil ? column.measured(cap: width) : column
      let cellsNatural = measured.cellsWidth ?? 0
      let natural = max(cellsNatural, header ? measured.headerWidth ?? 0 : 0)
      if column.flexible {
        // A flexible header may be truncated like its cells; it does not force the width.
        let wanted = max(cellsNatural, min(natural, column.minWidth))
        widths.append(wanted)
        minimums.append(min(wanted, column.minWidth))
      } else {
        widths.append(natural)
        minimums.append(natural)
      }
    }
    let gaps = columns.dropFirst().reduce(0) { $0 + $1.gap }
    let total = gaps + widths.reduce(0, +)
    if total > width {
      // Shrink flexible columns, widest first, down to their minimums.
      var excess = total - width
      while excess > 0 {
        var widest = -1
        for index in columns.indices where columns[index].flexible && widths[index] > minimums[index] {
          if widest < 0 || widths[index] > widths[widest] { widest = index }
        }
        guard widest >= 0 else { return nil }
        widths[widest] -= 1
        excess -= 1
      }
    }
    return widths
  }

  /// One row's cells, each cut and padded to its column's width, trailing spaces trimmed.
  func render(row: [String], widths: [Int]) -> String {
    var line = ""
    for (index, column) in columns.enumerated() {
      if index > 0 { line += TextLayout.spaces(column.gap) }
      let cell = DisplayWidth.truncate(row[index], to: widths[index], ellipsis: ellipsis)
      switch column.align {
      case .left: line += TextLayout.padRight(cell, widths[index])
      case .right: line += TextLayout.padLeft(cell, widths[index])
      }
    }
    return trimTrailingSpaces(line)
  }
}

/// `s` without trailing spaces (escape sequences after them are kept).
func trimTrailingSpaces(_ s: String) -> String {
  var result = Substring(s)
  while result.last == " " { result.removeLast() }
  return String(result)
}
