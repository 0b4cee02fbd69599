extension PostgresSchema {
  /// Schema "v7-id-runs": an expense is found by its id through `expense_id_run`, not a unique
  /// index on `(ledger_id, id)`.
  ///
  /// Why: measured on a million rows, the id index was the largest part of an import's time
  /// in the server (the same insert: 2.9 s with the duplicate key alone, 5.1 s with the id
  /// index too), since every row is written to it. An import numbers its new rows in file
  /// order, so a bank's file (in date order, either way) makes one run of consecutive ids per
  /// day: `expense_id_run` maps each run to the day it was stored on (`key >> 43`, the key's
  /// day field), and a day is one short range of the primary key. A file in no date order
  /// makes up to one run a row, no worse than the index. The SQLite store has kept its ids the
  /// same way since its first schema (`idRun`).
  ///
  /// Invariant: every stored expense's id lies in exactly one run of its ledger, whose day is
  /// the day of the expense's key; runs may also cover ids deleted since (a lookup then finds
  /// no row). Ids stay unique as they always were made: from the ledger's counter, which only
  /// grows. `expense_key_of`, `expense_keys_of` and `expense_keys_between` turn ids into keys;
  /// every writer keeps the runs (`PostgresIdRuns`).
  static let v7IdRuns: [String] =
    [
      """
      CREATE TABLE expense_id_run (
        ledger_id bigint NOT NULL REFERENCES ledger,
        first_id bigint NOT NULL,
        last_id bigint NOT NULL,
        day bigint NOT NULL,
        PRIMARY KEY (ledger_id, first_id))
      """,
      // The runs of the rows already stored: consecutive ids on one day.
      """
      INSERT INTO expense_id_run (ledger_id, first_id, last_id, day)
      SELECT ledger_id, min(id), max(id), day FROM (
        SELECT ledger_id, id, key >> 43 AS day,
               id - row_number() OVER (PARTITION BY ledger_id, key >> 43 ORDER BY id) AS run
        FROM expense) s
      GROUP BY ledger_id, day, run
      """,
      "ALTER TABLE expense DROP CONSTRAINT expense_ledger_id_id_key",
      """
      CREATE FUNCTION expense_key_of(l bigint, x bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
        SELECT e.key FROM (
          SELECT r.day FROM expense_id_run r
          WHERE r.ledger_id = l AND r.first_id <= x ORDER BY r.first_id DESC LIMIT 1) r
        JOIN expense e ON e.ledger_id = l AND e.key BETWEEN r.day << 43 AND (r.day << 43) | \(dayKeyMask)
          AND e.id = x
      $$
      """,
      """
      CREATE FUNCTION expense_keys_of(l bigint, ids bigint[]) RETURNS SETOF bigint LANGUAGE sql STABLE AS $$
        SELECT k FROM (SELECT expense_key_of(l, x) AS k FROM unnest(ids) AS u(x)) s WHERE k IS NOT NULL
      $$
      """,
      """
      CREATE FUNCTION expense_keys_between(l bigint, low bigint, high bigint) RETURNS SETOF bigint
      LANGUAGE sql STABLE AS $$
        SELECT e.key FROM expense_id_run r
        JOIN expense e ON e.ledger_id = l AND e.key BETWEEN r.day << 43 AND (r.day << 43) | \(dayKeyMask)
          AND e.id BETWEEN greatest(r.first_id, low) AND least(r.last_id, high)
        WHERE r.ledger_id = l AND r.first_id <= high AND r.last_id >= low
      $$
      """,
    ] + rowLevelSecurity(on: idRunTables)

  /// The ledger tables "v7-id-runs" added.
  static let idRunTables = ["expense_id_run"]

  /// The low bits of a key below its day (`ExpenseKey`: the day above bit 43).
  static let dayKeyMask: Int64 = (1 << 43) - 1
}
