import ExpenseCore
import ExpenseStore
import GRDB

extension AppDatabase {
  /// Schema "v4-tokens": what the HTTP server (`expenses serve`) needs.
  ///
  /// - `apiToken`: bearer tokens, kept as a SHA-256 hash only (the token is shown once, by
  ///   `token create`); a name, a scope (`read` or `write`), when it was made, when it expires
  ///   and when it was revoked (a revoked token stays listed);
  /// - `idempotencyKey`: the first answer to a request sent with an `Idempotency-Key`, per
  ///   token, so a client that retries an import gets that answer instead of a second import;
  /// - `revision`: one counter that triggers raise on every write to what the API serves, so a
  ///   client polls `/v1/changes` with one integer comparison.
  ///
  /// Why triggers and not calls in each write path: every writer (the CLI, the server, a future
  /// front end) raises the counter without knowing about it. The expense table itself has no
  /// insert or delete trigger: a million-row import or removal would pay a trigger per row,
  /// while it always rewrites `monthTotal` and `counter`, whose triggers fire a few times per
  /// import. Edits that leave the rollup alone (a description) fire the expense update trigger.
  static func migrateTokens(_ db: Database) throws {
    try db.create(table: "apiToken") { t in
      t.primaryKey("name", .text)
      t.column("hash", .text).notNull().unique()  // hex SHA-256 of the token
      t.column("scope", .text).notNull().check { ["read", "write"].contains($0) }
      t.column("createdAt", .text).notNull()  // ISO 8601 UTC
      t.column("expiresAt", .text)  // ISO 8601 UTC; NULL never expires
      t.column("revokedAt", .text)
    }
    try db.create(table: "idempotencyKey") { t in
      t.column("token", .text).notNull()  // apiToken.name
      t.column("key", .text).notNull()
      t.column("requestHash", .text).notNull()
      t.column("status", .integer).notNull()
      t.column("body", .blob).notNull()
      t.column("createdAt", .text).notNull()
      t.primaryKey(["token", "key"])
    }
    try db.create(table: "revision") { t in
      t.primaryKey("id", .integer).check { $0 == 1 }
      t.column("value", .integer).notNull()
    }
    try db.execute(sql: "INSERT INTO revision (id, value) VALUES (1, 1)")
    for table in revisionTables {
      for event in ["INSERT", "UPDATE", "DELETE"] {
        try db.execute(
          sql: """
            CREATE TRIGGER revision_\(table)_\(event.lowercased()) AFTER \(event) ON \(table)
            BEGIN UPDATE revision SET value = value + 1 WHERE id = 1; END
            """)
      }
    }
    try db.execute(
      sql: """
        CREATE TRIGGER revision_expense_update
        AFTER UPDATE OF date, amountMinor, currency, description, category, account ON expense
        BEGIN UPDATE revision SET value = value + 1 WHERE id = 1; END
        """)
  }

  /// Tables whose every change raises the revision (see `migrateTokens`).
  static let revisionTables = [
    "budget", "categoryKind", "rule", "sectionPreference", "setting", "importProfile", "importRecord",
    "importFile", "monthTotal", "counter",
  ]
}
