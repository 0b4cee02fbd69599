/// What `check` found: SQLite's own page-level findings, then everything else as problems.
public struct CheckReport: Sendable, Equatable, Codable {
  /// Lines of `PRAGMA integrity_check` other than `ok` (empty when the file is sound).
  public var integrity: [String] = []
  /// Foreign-key, unreadable-value, rollup and overflow findings.
  public var problems: [CheckProblem] = []
  /// Number of expense rows looked at (0 when the page check failed and nothing else ran).
  public var expenseCount = 0
  /// The rollup tables that were compared with the rows.
  public var rollupsChecked: [String] = []

  /// True when nothing at all was found.
  public var isHealthy: Bool { integrity.isEmpty && problems.isEmpty }

  /// An empty report (another store fills it in).
  public init() {}
}

/// One finding of `check`.
public struct CheckProblem: Sendable, Equatable, Codable {
  /// What kind of damage it is.
  public enum Kind: String, Sendable, Codable {
    /// A row refers to a row of another table that is not there.
    case foreignKey = "foreign key"
    /// A stored value is of a type or form the program cannot read.
    case unreadable = "unreadable value"
    /// A rollup differs from the rows (`check --repair` rebuilds it).
    case rollupOutOfStep = "rollup out of step"
    /// The rows' sums leave the 64-bit range.
    case overflow = "overflow"
  }

  public var kind: Kind
  /// The table it is in.
  public var table: String
  /// Ids of the rows concerned (the first 20), when it is about rows.
  public var rowIDs: [Int64] = []
  /// How many rows are concerned, when it is about rows.
  public var rowCount: Int = 0
  /// The months concerned (YYYY-MM), when known.
  public var months: [String] = []
  /// What is wrong, in words.
  public var message: String

  /// A rollup whose stored sums differ from its rows in `months`: the one verdict and wording
  /// of every store's `check` (`check --repair` rebuilds it).
  public static func rollupOutOfStep(table: String, months: [String]) -> CheckProblem {
    CheckProblem(
      kind: .rollupOutOfStep, table: table, months: months,
      message: "the stored totals differ from the rows")
  }

  /// Whether `check --repair` fixes it.
  public var isRepairable: Bool { kind == .rollupOutOfStep }

  public init(
    kind: Kind, table: String, rowIDs: [Int64] = [], rowCount: Int = 0, months: [String] = [], message: String
  ) {
    self.kind = kind
    self.table = table
    self.rowIDs = rowIDs
    self.rowCount = rowCount
    self.months = months
    self.message = message
  }
}
