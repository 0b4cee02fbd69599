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

    /// The most rows a search reads by one plain query before it reads through the cursor.
    static let searchRowLimit = 65_536
    var rowLimit = Snapshot.searchRowLimit

    /// The rows `sql` (a search's ordered SELECT) keeps, read by one plain query, or nil when
    /// there are more than `rowLimit`.
    ///
    /// Why: a cursor's query runs without parallel workers, and a search tests every row of
    /// the ledger; asked as a plain query, the server scans and sorts with its workers (a
    /// million bank-shaped rows: 0.19–0.33 s, where gathering the keys and then reading their
    /// rows through the cursor took 0.37–0.60 s). The planner is told, for this statement
    /// only, that a row gathered from a worker is cheap (`parallel_tuple_cost` 0.01 instead of
    /// 0.1): a search keeps few rows, but its estimate for a list of texts is far too high
    /// (194k rows for 36k), which made it scan alone. `jit` is off for it: compiling costs
    /// more than such a scan saves. A search that keeps more rows than the limit reads them
    /// through the cursor, as any listing does, so memory stays bounded.
    func searchRows(_ sql: String, _ binds: PostgresBindings) throws -> PostgresQueryResult? {
      let before = try connection.query(
        """
        SELECT current_setting('parallel_tuple_cost'), current_setting('jit'),
               set_config('parallel_tuple_cost', '0.01', true), set_config('jit', 'off', true)
        """
      ).first?.decode((String, String, String, String).self)
      defer {
        if let before {
          _ = try? connection.query(
            "SELECT set_config('parallel_tuple_cost', \(before.0), true), set_config('jit', \(before.1), true)")
        }
      }
      let rows = try connection.query(PostgresQuery(unsafeSQL: sql + " LIMIT \(rowLimit + 1)", binds: binds))
      return rows.count <= rowLimit ? rows : nil
    }

    func forEachExpense(_ query: ExpenseQuery, _ body: (ExpenseRow) throws -> Void) throws {
      let size = PostgresStore.snapshotPageSize
      var (sql, binds) = try store.expenseRowsSQL(
        connection, month: query.month, category: query.category, first: query.from, last: query.through)
      if let test = query.texts {
        sql += " AND " + (try store.textCondition(connection, test, &binds))
      }
      switch query.order {
      case .any: sql += " ORDER BY e.key DESC"  // the primary key's order: no sort
      case .newestFirst: sql += " ORDER BY e.date DESC, e.id DESC"
      case .oldestFirst: sql += " ORDER BY e.date, e.id"
      }
      if query.texts != nil, let rows = try searchRows(sql, binds) {
        // Decoded one at a time, as the cursor's pages are.
        for row in rows { try ExpenseRow.withRow(of: try store.storedRow(row).expense, body) }
        return
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
