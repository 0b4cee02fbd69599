import ExpenseStore
import TestSupport
import Testing

@testable import ExpensePostgres

/// A new database built by the store's own first `version` migrations, as a build of that
/// version left it, for the tests of a later migration. Returns its URL and a connection
/// inside the open transaction that built it (every ledger's rows in scope), for the test to
/// add rows and `COMMIT`.
func olderSchemaDatabase(version: Int) throws -> (url: String, connection: BlockingConnection) {
  let url = try PostgresServer.shared().makeDatabase()
  let connection = try BlockingConnection(try #require(PostgresLocation(url: url)))
  try connection.execute("BEGIN")
  try connection.execute(
    "CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
  )
  try connection.query("SELECT set_config(\(PostgresSchema.scopeSetting), 'all', true)")
  for (index, migration) in PostgresSchema.migrations.prefix(version).enumerated() {
    for statement in migration.statements { try connection.execute(statement) }
    try connection.query("INSERT INTO schema_version (version, name) VALUES (\(index + 1), \(migration.name))")
  }
  return (url, connection)
}
