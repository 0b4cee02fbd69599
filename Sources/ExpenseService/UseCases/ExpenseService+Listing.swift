import ExpenseCore
import ExpenseRender
import ExpenseStore

extension ExpenseService {
  /// How `list` prints the expenses.
  public enum ListFormat: Sendable, Equatable {
    /// The table of `ExpenseListRenderer` with ids, fitted to `width`.
    case text(width: Int, glyphs: GlyphSet)
    /// `ExpenseResource.json` of the rows.
    case json
    /// `ExpenseCSVRenderer`'s table.
    case csv
  }

  /// Writes the expenses (all, one month's and/or one category's, newest first) as `list`
  /// prints them into `out`, as the rows are read: memory does not grow with the rows, and the
  /// bytes are those of the array renderers (`ExpenseListRenderer.render`,
  /// `ExpenseResource.json` and a newline, `ExpenseCSVRenderer.render`).
  ///
  /// The text table reads the rows twice from one snapshot of the store (its columns are as
  /// wide as their widest cell): once in storage order to measure (twice at widths where only
  /// short amounts fit), once in order to print.
  /// Errors of `out`'s drain (a closed output) are rethrown as they are; `out` is not flushed.
  /// A category no row, budget, rule or kind names is refused (`unknownCategory`, with a close
  /// name): "No expenses." would hide a typo.
  public func writeExpenses(
    month: Month?, category: String?, format: ListFormat, into out: inout OutputBuffer
  ) throws {
    if let category { try checkCategoryFilter(category) }
    let query = ExpenseQuery(month: month, category: category, order: .newestFirst)
    // Read before the snapshot (a store's reads do not nest in it); pairs change only with an
    // import or an unpair, each one transaction.
    let partners = format == .json ? try transferPartners() : [:]
    try store.withExpenseSnapshot { snapshot in
      switch format {
      case .csv:
        ExpenseCSVStream.writeHeader(into: &out)
        try snapshot.forEachExpense(query) { row in
          ExpenseCSVStream.write(row, into: &out)
          try out.endRow()
        }
      case .json:
        var json = ExpenseJSONStream()
        json.transferPartners = partners
        try snapshot.forEachExpense(query) { row in
          json.write(row, into: &out)
          try out.endRow()
        }
        json.finish(into: &out)
        out.append(UInt8(ascii: "\n"))
      case .text(let width, let glyphs):
        // With ids: `edit`, `delete` and their errors send the user here for them.
        var list = ExpenseListStream(renderer: ExpenseListRenderer(width: width, glyphs: glyphs, ids: true))
        try snapshot.forEachExpense(query.ordered(.any)) { list.measure($0) }
        if list.needsShortAmounts {
          try snapshot.forEachExpense(query.ordered(.any)) { list.measureShortAmount($0) }
        }
        list.writeHeader(into: &out)
        try snapshot.forEachExpense(query) { row in
          list.write(row, into: &out)
          try out.endRow()
        }
      }
    }
  }
}
