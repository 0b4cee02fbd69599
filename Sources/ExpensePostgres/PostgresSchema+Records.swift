extension PostgresSchema {
  /// Schema "v6-records": the service's small records (`StoredRecord`: budget moves, goals)
  /// per ledger, by kind and id, and each kind's next id (an id is never given twice, a removed
  /// record's included), as the SQLite store's `record` and `recordCounter`. Every change
  /// raises the ledger's revision; row-level security as on every table of ledger data.
  static let v6Records: [String] =
    [
      """
      CREATE TABLE record (
        ledger_id bigint NOT NULL REFERENCES ledger,
        kind text NOT NULL,
        id bigint NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (ledger_id, kind, id))
      """,
      """
      CREATE TABLE record_counter (
        ledger_id bigint NOT NULL REFERENCES ledger,
        kind text NOT NULL,
        next bigint NOT NULL,
        PRIMARY KEY (ledger_id, kind))
      """,
      "CREATE TRIGGER record_revision AFTER INSERT OR UPDATE OR DELETE ON record FOR EACH ROW EXECUTE FUNCTION revision_follow()",
    ] + rowLevelSecurity(on: recordTables)

  /// The ledger tables "v6-records" added.
  static let recordTables = ["record", "record_counter"]
}
