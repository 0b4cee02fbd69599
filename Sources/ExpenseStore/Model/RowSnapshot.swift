import ExpenseCore

/// Rows exactly as a store keeps them, with what ties them together: the split sets they are
/// parts of and the transfer pairs they are in. The history (`ExpenseService.history`) keeps one
/// of what a change touched before and after it, and an undo puts the one before back with
/// `LedgerStore.restoreRows`.
///
/// Why stored values and not `Expense`: an undone delete must bring a row back as it was, with
/// its id (which clients hold), its key (the duplicate check of the file it came from, so
/// importing that file again still finds it), its provenance and the source of its category.
public struct RowSnapshot: Hashable, Sendable, Codable {
  public var rows: [SnapshotRow]
  /// The pairs any of `rows` is in (both sides are in `rows` when the service took the closure).
  public var pairs: [TransferPair]
  /// Import records to put back with the rows (an undone `imports remove`), with their ids.
  public var imports: [ImportRecord]

  public init(rows: [SnapshotRow] = [], pairs: [TransferPair] = [], imports: [ImportRecord] = []) {
    self.rows = rows
    self.pairs = pairs
    self.imports = imports
  }

  /// The ids of the rows, in the snapshot's order.
  public var ids: [Int64] { rows.map(\.row.id) }

  /// Row `id`, if the snapshot holds it.
  public func row(id: Int64) -> SnapshotRow? { rows.first { $0.row.id == id } }
}

/// One row of a `RowSnapshot`: the stored row and the split set it is a part of.
public struct SnapshotRow: Hashable, Sendable, Codable {
  public var row: StoredExpense
  /// The id of its split set's first part; nil for an ordinary row.
  public var splitSet: Int64?

  public init(row: StoredExpense, splitSet: Int64? = nil) {
    self.row = row
    self.splitSet = splitSet
  }
}
