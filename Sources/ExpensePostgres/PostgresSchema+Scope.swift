extension PostgresSchema {
  /// The setting that widens a session past its ledger for one transaction:
  /// `directory` (the directory's own work: resolve a token, list or create ledgers, users and
  /// memberships) or `all` (the migrations). Set only with `set_config(..., true)`, so it ends
  /// with the transaction that set it.
  static let scopeSetting = "expenses.scope"

  /// The session's ledger, or NULL when it named none.
  static let sessionLedger = "NULLIF(current_setting('\(ledgerSetting)', true), '')::bigint"
  /// The session's scope words, or NULL.
  static let sessionScope = "current_setting('\(scopeSetting)', true)"

  /// Schema "v4-fail-closed": row-level security that fails closed, on the directory too.
  ///
  /// Before, a session that named no ledger saw every ledger's rows, and the directory
  /// (`ledger`, `ledger_member`, `api_token`, `app_user`) had no policy: a session narrowed to
  /// one ledger still listed every ledger's token names, members and revisions. Now:
  /// - a ledger table shows a session only its ledger's rows; a session with no ledger sees
  ///   none (the migrations say `all`);
  /// - a directory table shows a narrowed session only its own ledger's rows (its ledger, its
  ///   members and their users, its tokens), and everything only inside a transaction that
  ///   says `directory` (`PostgresStore.inDirectory`).
  static let v4FailClosed: [String] =
    ledgerTables.flatMap { table in
      [
        "DROP POLICY ledger_scope ON \(table)",
        """
        CREATE POLICY ledger_scope ON \(table)
        USING (ledger_id = \(sessionLedger) OR \(sessionScope) = 'all')
        """,
      ]
    }
    + [("ledger", "id"), ("ledger_member", "ledger_id"), ("api_token", "ledger_id")].flatMap { table, column in
      [
        "ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE \(table) FORCE ROW LEVEL SECURITY",
        """
        CREATE POLICY directory_scope ON \(table)
        USING (\(column) = \(sessionLedger) OR \(sessionScope) IN ('directory', 'all'))
        """,
      ]
    }
    + [
      "ALTER TABLE app_user ENABLE ROW LEVEL SECURITY",
      "ALTER TABLE app_user FORCE ROW LEVEL SECURITY",
      """
      CREATE POLICY directory_scope ON app_user
      USING (\(sessionScope) IN ('directory', 'all')
             OR EXISTS (SELECT 1 FROM ledger_member m WHERE m.user_name = app_user.name
                        AND m.ledger_id = \(sessionLedger)))
      """,
    ]
}
