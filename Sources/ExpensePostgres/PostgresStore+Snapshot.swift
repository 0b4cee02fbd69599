import ExpenseCore
import ExpenseStore
import PostgresNIO

/// `LedgerStore.withExpenseSnapshot` over PostgreSQL: one `REPEATABLE READ` read-only
/// transaction, so every pass sees the same rows, read in keyset pages so memory does not grow
/// with the number of rows.
extension PostgresStore {
  /// Where a page in date order resumes: after this row, in this direction.
  struct DateSeek {
    var date: CivilDate
    var id: Int64
    var descending: Bool
  }

  /// Rows per page of a streaming pass: large enough that a round trip is cheap per row, small
  /// enough that a page's decoded rows stay a few MiB.
  static let snapshotPageSize = 4096

  public func withExpenseSnapshot<T>(_ body: (any ExpenseSnapshot) throws -> T) throws -> T {
    // Inside `consistently` (a report's reads and its rows), the open transaction's snapshot.
    try consistently { try read { connection in try body(Snapshot(store: self, connection: connection)) } }
  }

  /// The rows of the snapshot's transaction, one page at a time.
  struct Snapshot: ExpenseSnapshot {
    let store: PostgresStore
    let connection: BlockingConnection

    func forEachExpense(_ query: ExpenseQuery, _ body: (ExpenseRow) throws -> Void) throws {
      let size = PostgresStore.snapshotPageSize
      var key: Int64?
      var seek: DateSeek?
      while true {
        let rows: [StoredRow]
        switch query.order {
        case .any:
          // Key order: the primary key's, so no sort.
          rows = try page(query, key: key, seek: nil, order: "e.key DESC", size: size)
          key = rows.last?.key
        case .newestFirst, .oldestFirst:
          let descending = query.order == .newestFirst
          rows = try page(
            query, key: nil, seek: seek, order: descending ? "e.date DESC, e.id DESC" : "e.date, e.id", size: size)
          if let last = rows.last?.expense, let id = last.id {
            seek = DateSeek(date: last.date, id: id, descending: descending)
          }
        }
        for row in rows { try ExpenseRow.withRow(of: row.expense, body) }
        if rows.count < size { return }
      }
    }

    private func page(_ query: ExpenseQuery, key: Int64?, seek: DateSeek?, order: String, size: Int) throws
      -> [StoredRow]
    {
      try store.expenseRows(
        connection, month: query.month, category: query.category, after: key, first: query.from,
        last: query.through, seek: seek, order: order, limit: size)
    }
  }
}
