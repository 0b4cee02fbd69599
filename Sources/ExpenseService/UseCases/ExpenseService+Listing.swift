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
  ///
  /// A search (`search`: `list --search`, `--min`, `--max`, `--from`, `--to`) keeps the rows
  /// `search.filter` matches, across all months unless `month` says one; the text table then
  /// ends with how many rows it found and their total per currency.
  public func writeExpenses(
    month: Month?, category: String?, format: ListFormat, into out: inout OutputBuffer,
    search: ExpenseSearch? = nil
  ) throws {
    if let category { try checkCategoryFilter(category) }
    var query = ExpenseQuery(
      month: month, category: category, from: search?.from, through: search?.through, order: .newestFirst)
    query.texts = search?.filter.textTest
    let matcher = ExpenseMatcher(search?.filter ?? ExpenseFilter(text: nil))
    var found = SearchTotals()
    // Read before the snapshot (a store's reads do not nest in it); pairs change only with an
    // import or an unpair, each one transaction.
    let partners = format == .json ? try transferPartners() : [:]
    let tags = try TagIndex.load(store)
    let tag = try search?.tag.map(tags.known)
    var filter = RowFilter(matcher: matcher, tag: tag, index: tags)
    try store.withExpenseSnapshot { snapshot in
      switch format {
      case .csv:
        ExpenseCSVStream.writeHeader(into: &out)
        try snapshot.forEachExpense(query) { row in
          guard filter.matches(row) else { return }
          ExpenseCSVStream.write(row, into: &out)
          try out.endRow()
        }
      case .json:
        var json = ExpenseJSONStream()
        json.transferPartners = partners
        if !tags.isEmpty { json.tags = { tags.tags($0) } }
        try snapshot.forEachExpense(query) { row in
          guard filter.matches(row) else { return }
          json.write(row, into: &out)
          try out.endRow()
        }
        json.finish(into: &out)
        out.append(UInt8(ascii: "\n"))
      case .text(let width, let glyphs):
        // With ids: `edit`, `delete` and their errors send the user here for them.
        var list = ExpenseListStream(renderer: ExpenseListRenderer(width: width, glyphs: glyphs, ids: true))
        try snapshot.forEachExpense(query.ordered(.any)) { if filter.matches($0) { list.measure($0) } }
        if list.needsShortAmounts {
          try snapshot.forEachExpense(query.ordered(.any)) { if filter.matches($0) { list.measureShortAmount($0) } }
        }
        list.writeHeader(into: &out)
        try snapshot.forEachExpense(query) { row in
          guard filter.matches(row) else { return }
          found.add(row.amount)
          list.write(row, into: &out)
          try out.endRow()
        }
        if search != nil {
          var lines = FittedText.fit(found.words, width: width)
          while lines.hasSuffix("\n") { lines.removeLast() }
          out.append(lines + "\n")
        }
      }
    }
  }
}

extension ExpenseService {
  /// How many rows an all-months search in `browse` holds: the newest (a screen of them is
  /// what a person reads; the count says how many more matched).
  public static let searchRowLimit = 2_000

  /// The newest `limit` rows `search` keeps, across all months, with their tags, and how many
  /// it keeps in all: one streaming pass in `list`'s order.
  public func searchRows(_ search: ExpenseSearch, limit: Int) throws -> (rows: [Expense], total: Int) {
    let tags = try TagIndex.load(store)
    var filter = RowFilter(
      matcher: ExpenseMatcher(search.filter), tag: try search.tag.map(tags.known), index: tags)
    var rows: [Expense] = []
    var total = 0
    var query = ExpenseQuery(from: search.from, through: search.through, order: .newestFirst)
    query.texts = search.filter.textTest
    try store.withExpenseSnapshot { snapshot in
      try snapshot.forEachExpense(query) { row in
        guard filter.matches(row) else { return }
        total += 1
        if rows.count < limit {
          var expense = row.expense
          expense.tags = tags.tags(row)
          rows.append(expense)
        }
      }
    }
    return (rows, total)
  }
}

/// What `list --search` looks for: the filter, the days it looks in (`--from`, `--to`), and a
/// tag the rows must have (`--tag`).
public struct ExpenseSearch: Sendable, Equatable {
  public var filter: ExpenseFilter
  public var from: CivilDate?
  public var through: CivilDate?
  public var tag: String?

  public init(filter: ExpenseFilter, from: CivilDate? = nil, through: CivilDate? = nil, tag: String? = nil) {
    self.filter = filter
    self.from = from
    self.through = through
    self.tag = tag
  }
}

/// A search's filter and its tag, as one test per row.
private struct RowFilter {
  var matcher: ExpenseMatcher
  let tag: String?
  let index: TagIndex

  mutating func matches(_ row: ExpenseRow) -> Bool {
    guard matcher.matches(row) else { return false }
    guard let tag else { return true }
    return index.row(row, has: tag)
  }
}

/// How many rows a search found and their total in each currency (never added together).
struct SearchTotals {
  var count = 0
  var totals: [Currency: Int128] = [:]

  mutating func add(_ amount: Money) {
    count += 1
    totals[amount.currency, default: 0] += Int128(amount.minor)
  }

  /// "12 rows · -$345.67 · €-12.00", the currencies by code.
  var words: String {
    let rows = count == 1 ? "1 row" : "\(count) rows"
    let sums = totals.sorted { $0.key.code < $1.key.code }.map {
      Money.format(minor: Int64(clamping: $0.value), currency: $0.key)
    }
    return ([rows] + sums).joined(separator: " · ")
  }
}

extension ExpenseFilter {
  /// The filter's text as a store's prefilter (`ExpenseQuery.texts`): a store that keeps its
  /// texts in dictionaries tests each once and reads only the rows that can match; nil when
  /// the filter has no text.
  var textTest: TextTest? {
    guard let text else { return nil }
    let filter = self
    // ASCII folds to ASCII lower-case: an ASCII text holds an ASCII needle when its
    // lower-case does, and never holds one that is not ASCII.
    let ascii: TextTest.AsciiRule = asciiNeedleText.map { .lowercasedContains($0) } ?? .never
    return TextTest(name: "contains:" + text, ascii: ascii) { filter.contains(text: $0) }
  }
}
