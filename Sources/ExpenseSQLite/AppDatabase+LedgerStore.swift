import ExpenseCore
import ExpenseStore
import Foundation

/// The SQLite file as a `LedgerStore`. Most requirements are `AppDatabase`'s own methods; these
/// are the few whose SQLite names say more than the protocol's.
extension AppDatabase: LedgerStore {
  public var filePath: String? { path == ":memory:" ? nil : path }

  public func changeStamp() throws -> Int64 { try dataVersion() }

  public func importRows<T>(
    sourceFile: String, dryRun: Bool, explainLimit: Int, importedAt: Date?, _ body: (any ImportWriter) throws -> T
  ) throws -> T {
    try importFile(sourceFile: sourceFile, dryRun: dryRun, explainLimit: explainLimit, importedAt: importedAt) {
      session in try body(session)
    }
  }
}
