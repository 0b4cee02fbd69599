extension PostgresSchema {
  /// Schema "v5-transfer-pairs": the pairs an import matched as one move between the user's
  /// own accounts (see the SQLite store's `transferPair`): the money out (`out_id`) and in
  /// (`in_id`), each row in at most one pair, with the categories they had before, which
  /// `transfers unpair` gives back. Row-level security as on every table of ledger data.
  static let v5TransferPairs: [String] =
    [
      """
      CREATE TABLE transfer_pair (
        ledger_id bigint NOT NULL REFERENCES ledger,
        made bigint GENERATED ALWAYS AS IDENTITY,
        out_id bigint NOT NULL,
        in_id bigint NOT NULL,
        out_category text,
        out_source smallint NOT NULL,
        in_category text,
        in_source smallint NOT NULL,
        PRIMARY KEY (ledger_id, out_id),
        UNIQUE (ledger_id, in_id),
        CHECK (out_id <> in_id))
      """
    ] + rowLevelSecurity(on: pairTables)

  /// The ledger tables added after `ledgerTables` was shipped (whose migrations name it).
  static let pairTables = ["transfer_pair"]

  /// Row-level security on `tables` as "v4-fail-closed" left every table of ledger data, with
  /// `policy` (a shipped migration keeps the form it was shipped with; a table added after
  /// "v8-policy-once" is given `ledgerPolicyOnce`).
  static func rowLevelSecurity(
    on tables: [String], policy: String = "ledger_id = \(sessionLedger) OR \(sessionScope) = 'all'"
  ) -> [String] {
    tables.flatMap { table in
      [
        "ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE \(table) FORCE ROW LEVEL SECURITY",
        """
        CREATE POLICY ledger_scope ON \(table)
        USING (\(policy))
        """,
      ]
    }
  }
}
