extension PostgresSchema {
  /// The tables that hold one ledger's data: each row belongs to the ledger `ledger_id` names,
  /// and row-level security lets a session see only its own ledger's rows.
  static let ledgerTables = [
    "import_file", "expense", "month_total", "budget", "category_kind", "rule", "section_preference", "setting",
    "import_profile", "import_record", "split_part", "idempotency_key",
  ]

  /// The setting a store's session names its ledger with (`SET expenses.ledger = ID`).
  static let ledgerSetting = "expenses.ledger"

  /// Schema "v3-users": users, their roles in ledgers, whom tokens act for, the directory's
  /// change stamp, and row-level security on every table of ledger data.
  ///
  /// - `app_user` and `ledger_member`: `local` (the person at the terminal) owns every ledger
  ///   that exists, so a database made before keeps working exactly as it did.
  /// - `api_token.user_name`: tokens made before act for `local`.
  /// - `directory.revision` grows with every change to tokens, users, memberships and ledgers
  ///   (statement triggers), so a server checks its cached tokens with one read per request
  ///   however many ledgers there are.
  /// - Row-level security, FORCEd so that it binds the tables' owner too: a session that has
  ///   named its ledger (every store's does, on connecting) reads and writes only that ledger's
  ///   rows, whatever a query says; the queries already say `ledger_id = ...`, so this is the
  ///   second, independent check. A session that names no ledger (psql, pg_dump, the
  ///   migrations) is not narrowed. A superuser bypasses row-level security altogether: connect
  ///   as an ordinary role for the second check to hold (docs/scaling.md).
  static let v3Users: [String] =
    [
      "CREATE TABLE app_user (name text PRIMARY KEY, created_at text NOT NULL)",
      "INSERT INTO app_user (name, created_at) VALUES ('local', \(nowText))",
      """
      CREATE TABLE ledger_member (
        ledger_id bigint NOT NULL REFERENCES ledger ON DELETE CASCADE,
        user_name text NOT NULL REFERENCES app_user,
        role text NOT NULL CHECK (role IN ('read', 'write', 'owner')),
        since text NOT NULL,
        PRIMARY KEY (ledger_id, user_name))
      """,
      "INSERT INTO ledger_member (ledger_id, user_name, role, since) SELECT id, 'local', 'owner', \(nowText) FROM ledger",
      "ALTER TABLE api_token ADD COLUMN user_name text NOT NULL DEFAULT 'local'",
      "CREATE TABLE directory (id integer PRIMARY KEY CHECK (id = 1), revision bigint NOT NULL)",
      "INSERT INTO directory (id, revision) VALUES (1, 1)",
      """
      CREATE FUNCTION directory_follow() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE directory SET revision = revision + 1 WHERE id = 1;
        RETURN NULL;
      END
      $$
      """,
    ]
    + ["api_token", "app_user", "ledger_member"].map {
      "CREATE TRIGGER \($0)_directory AFTER INSERT OR UPDATE OR DELETE ON \($0) FOR EACH STATEMENT EXECUTE FUNCTION directory_follow()"
    }
    + [
      "CREATE TRIGGER ledger_directory AFTER INSERT OR DELETE ON ledger FOR EACH STATEMENT EXECUTE FUNCTION directory_follow()"
    ]
    + ledgerTables.flatMap { table in
      [
        "ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE \(table) FORCE ROW LEVEL SECURITY",
        """
        CREATE POLICY ledger_scope ON \(table)
        USING (ledger_id = COALESCE(NULLIF(current_setting('\(ledgerSetting)', true), '')::bigint, ledger_id))
        """,
      ]
    }

  /// Now as the ISO 8601 UTC text the stores keep times in.
  static let nowText = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
}
