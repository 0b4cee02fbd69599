import ExpenseSQLite
import ExpenseStore

/// A second connection to a test's database, as another process (the CLI) would open it.
enum AppDatabaseOpener {
  static func open(_ path: String) throws -> AppDatabase { try AppDatabase(path: path, access: .read) }
}
