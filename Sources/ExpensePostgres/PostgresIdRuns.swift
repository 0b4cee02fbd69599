import ExpenseCore
import ExpenseStore
import PostgresNIO

/// The runs of consecutive expense ids stored on one day (`expense_id_run`, schema
/// "v7-id-runs"): built as an import numbers its rows, and kept by every other write that
/// stores a row or moves it to another day.
///
/// Invariant (see `PostgresSchema.v7IdRuns`): every stored expense's id lies in exactly one run
/// of its ledger, whose day is its key's day (`ExpenseKey.day`).
struct PostgresIdRuns {
  /// Runs ended and not written yet: (first id, last id, day).
  private(set) var ended: [(first: Int64, last: Int64, day: Int64)] = []
  /// The run being built.
  private var pending: (first: Int64, last: Int64, day: Int64)?

  /// Adds id `id` stored on `day`; ids must come in increasing order.
  mutating func add(id: Int64, day: Int64) {
    if let run = pending, run.day == day, run.last + 1 == id {
      pending = (run.first, id, day)
      return
    }
    if let run = pending { ended.append(run) }
    pending = (id, id, day)
  }

  /// Writes the ended runs (and, with `all`, the one being built) in one statement.
  mutating func write(_ connection: BlockingConnection, ledger: Int64, all: Bool) throws {
    if all, let run = pending {
      ended.append(run)
      pending = nil
    }
    guard !ended.isEmpty else { return }
    try Self.insert(connection, ledger: ledger, ended)
    ended.removeAll(keepingCapacity: true)
  }

  /// Stores `runs` of `ledger` in one statement.
  private static func insert(
    _ connection: BlockingConnection, ledger: Int64, _ runs: [(first: Int64, last: Int64, day: Int64)]
  ) throws {
    try connection.query(
      """
      INSERT INTO expense_id_run (ledger_id, first_id, last_id, day)
      SELECT \(ledger), u.f, u.l, u.d FROM unnest(\(runs.map(\.first)), \(runs.map(\.last)), \(runs.map(\.day)))
        AS u(f, l, d)
      """)
  }

  /// The run of `ledger` holding `id`, if any.
  static func run(
    _ connection: BlockingConnection, ledger: Int64, containing id: Int64
  ) throws -> (first: Int64, last: Int64, day: Int64)? {
    let rows = try connection.query(
      """
      SELECT first_id, last_id, day FROM expense_id_run
      WHERE ledger_id = \(ledger) AND first_id <= \(id) ORDER BY first_id DESC LIMIT 1
      """)
    guard let (first, last, day) = try rows.first?.decode((Int64, Int64, Int64).self), last >= id else { return nil }
    return (first, last, day)
  }

  /// Records that expense `id` now lives on `day` (an edit moved it): its run is split around
  /// it; an id no run holds (never stored) is given a run of its own.
  static func place(_ connection: BlockingConnection, ledger: Int64, id: Int64, day: Int64) throws {
    guard let run = try run(connection, ledger: ledger, containing: id) else {
      try insert(connection, ledger: ledger, [(id, id, day)])
      return
    }
    guard run.day != day else { return }
    try connection.query("DELETE FROM expense_id_run WHERE ledger_id = \(ledger) AND first_id = \(run.first)")
    var runs: [(first: Int64, last: Int64, day: Int64)] = [(id, id, day)]
    if run.first < id { runs.append((run.first, id - 1, run.day)) }
    if id < run.last { runs.append((id + 1, run.last, run.day)) }
    try insert(connection, ledger: ledger, runs)
  }

  /// Builds the ledger's runs from its stored rows (after a ledger is loaded whole).
  static func rebuild(_ connection: BlockingConnection, ledger: Int64) throws {
    try connection.query("DELETE FROM expense_id_run WHERE ledger_id = \(ledger)")
    try connection.query(
      """
      INSERT INTO expense_id_run (ledger_id, first_id, last_id, day)
      SELECT \(ledger), min(id), max(id), day FROM (
        SELECT id, key >> 43 AS day, id - row_number() OVER (PARTITION BY key >> 43 ORDER BY id) AS run
        FROM expense WHERE ledger_id = \(ledger)) s
      GROUP BY day, run
      """)
  }
}
