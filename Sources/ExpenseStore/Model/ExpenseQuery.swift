import ExpenseCore

/// Which expenses a streaming read visits, and in what order: the filters of `list` (month,
/// category) and of `export` (a date range), which the array reads take as arguments.
public struct ExpenseQuery: Sendable, Hashable {
  /// The order rows are visited in.
  public enum Order: Sendable, Hashable {
    /// By date then id, newest first: `list`'s order (`expenses(month:category:limit:)`).
    case newestFirst
    /// By date then id, oldest first: `export`'s order (`expenses(from:through:)`).
    case oldestFirst
    /// Whatever order the store reads fastest (no sort): for a pass that only measures or
    /// collects, such as the text list's column widths.
    case any
  }

  /// Only this month.
  public var month: Month?
  /// Only this category; `Uncategorized` selects the rows without one, as in
  /// `expenses(month:category:limit:)`.
  public var category: String?
  /// Only from this day on.
  public var from: CivilDate?
  /// Only up to this day (included).
  public var through: CivilDate?
  public var order: Order
  /// A test of texts a row must pass in its description, category or account, which a store
  /// may run once per distinct text it keeps (SQLite: its dictionaries) and use to read only
  /// the rows that can pass. Only a prefilter: a store may ignore it, and the caller still
  /// tests every row it is given (`list --search`).
  public var texts: TextTest?

  public init(
    month: Month? = nil, category: String? = nil, from: CivilDate? = nil, through: CivilDate? = nil,
    order: Order = .newestFirst
  ) {
    self.month = month
    self.category = category
    self.from = from
    self.through = through
    self.order = order
  }

  /// The same rows in another order.
  public func ordered(_ order: Order) -> ExpenseQuery {
    var copy = self
    copy.order = order
    return copy
  }
}

/// The expenses of one consistent state of a store, read as often as a renderer needs: a text
/// table measures its columns in one pass and prints in a second, and both passes must see the
/// same rows, whatever another process commits in between. Valid only inside
/// `LedgerStore.withExpenseSnapshot`.
public protocol ExpenseSnapshot {
  /// Calls `body` for each expense `query` selects, in its order, one row at a time: memory does
  /// not grow with the number of rows. The row's texts are valid only during the call (see
  /// `ExpenseRow`). An error `body` throws ends the read and is rethrown unchanged.
  func forEachExpense(_ query: ExpenseQuery, _ body: (ExpenseRow) throws -> Void) throws
}

/// A test of one text, named by what it looks for (two tests with one name are one test, so a
/// query holding one stays a key).
public struct TextTest: Sendable, Hashable {
  public let name: String
  public let test: @Sendable (String) -> Bool
  /// What the test says of a text that is all ASCII, where a store can say it in SQL without
  /// asking `test` text by text; nil when it cannot be said so.
  public let ascii: AsciiRule?

  /// The test of an ASCII text.
  public enum AsciiRule: Sendable, Hashable {
    /// It passes when its letters made lower-case hold this (lower-case ASCII) text.
    case lowercasedContains(String)
    /// No ASCII text passes.
    case never
  }

  public init(name: String, ascii: AsciiRule? = nil, test: @escaping @Sendable (String) -> Bool) {
    self.name = name
    self.ascii = ascii
    self.test = test
  }

  public static func == (a: TextTest, b: TextTest) -> Bool { a.name == b.name }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
