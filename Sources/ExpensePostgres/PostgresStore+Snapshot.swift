import ExpenseCore
import ExpenseStore
import PostgresNIO

/// `LedgerStore.withExpenseSnapshot` over PostgreSQL: one `REPEATABLE READ` read-only
/// transaction, so every pass sees the same rows, each pass one query read through a cursor a
/// page at a time, so memory does not grow with the number of rows.
///
/// Why a cursor and not keyset pages: the date order has no index (one would cost every
/// import), so each keyset page sorted the whole ledger again; a million rows took minutes.
/// The cursor's query sorts once.
extension PostgresStore {
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

    /// The most keys a search gathers before it reads its rows by key (8 bytes each).
    static let searchKeyLimit = 262_144
    var keyLimit = Snapshot.searchKeyLimit

    /// The keys of the rows `sql` (a search's SELECT) keeps, found by one query before the
    /// rows are read, or nil when there are more than `keyLimit`.
    ///
    /// Why: a cursor's query runs without parallel workers, and a search tests every row of
    /// the ledger; asked as a plain query, the server scans with its workers and sends only
    /// keys, then the rows (a search keeps few) are read by the primary key. A search that
    /// keeps more rows than the limit reads them through the cursor, as any listing does, so
    /// memory stays bounded.
    func matchingKeys(_ sql: String, _ binds: PostgresBindings) throws -> [Int64]? {
      guard sql.hasPrefix(PostgresStore.expenseColumns) else { return nil }
      let keys =
        "SELECT e.key " + PostgresStore.expenseFrom + sql.dropFirst(PostgresStore.expenseColumns.count)
        + " LIMIT \(keyLimit + 1)"
      let found = try connection.query(PostgresQuery(unsafeSQL: keys, binds: binds)).map { try $0.decode(Int64.self) }
      return found.count > keyLimit ? nil : found
    }

    func forEachExpense(_ query: ExpenseQuery, _ body: (ExpenseRow) throws -> Void) throws {
      let size = PostgresStore.snapshotPageSize
      var (sql, binds) = try store.expenseRowsSQL(
        connection, month: query.month, category: query.category, first: query.from, last: query.through)
      if let test = query.texts {
        sql += " AND " + (try store.textCondition(connection, test, &binds))
        if let keys = try matchingKeys(sql, binds) {
          // The rows found, read by their keys.
          (sql, binds) = (
            PostgresStore.expenseColumns + " WHERE e.ledger_id = $1 AND e.key = ANY($2)", PostgresBindings()
          )
          binds.append(store.ledger)
          binds.append(keys)
        }
      }
      switch query.order {
      case .any: sql += " ORDER BY e.key DESC"  // the primary key's order: no sort
      case .newestFirst: sql += " ORDER BY e.date DESC, e.id DESC"
      case .oldestFirst: sql += " ORDER BY e.date, e.id"
      }
      // A name of its own: a pass may run inside another's body.
      let cursor = "expense_rows_\(UInt64.random(in: 0...UInt64.max))"
      try connection.query(PostgresQuery(unsafeSQL: "DECLARE \(cursor) NO SCROLL CURSOR FOR " + sql, binds: binds))
      defer { try? connection.execute("CLOSE \(cursor)") }
      while true {
        let rows = try connection.query(PostgresQuery(unsafeSQL: "FETCH FORWARD \(size) FROM \(cursor)"))
          .map(store.storedRow)
        for row in rows { try ExpenseRow.withRow(of: row.expense, body) }
        if rows.count < size { return }
      }
    }
  }
}
