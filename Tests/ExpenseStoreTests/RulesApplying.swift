import ExpenseSQLite
import ExpenseService
import ExpenseStore
import ExpenseStores

/// `rules apply` as the program runs it: the service's policy over this store's
/// `recategorize`, so these tests check the SQLite side of the one implementation.
extension AppDatabase {
  func applyRules(dryRun: Bool) throws -> RulesApplyResult {
    try ExpenseService(store: self, stores: Stores()).applyRules(dryRun: dryRun)
  }

  /// How many rows a real run changed.
  func applyRules() throws -> Int { try applyRules(dryRun: false).changed }
}
