import ExpenseStore
import Foundation

/// Imports an uploaded file as `expenses import` does.
enum ServerImports {
  static func run(database: AppDatabase, path: String, request: ImportRequest, now: Date) throws -> ImportResult {
    throw APIProblem(status: .notImplemented, detail: "imports need the ExpenseService layer")
  }
}
