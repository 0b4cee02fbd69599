import ExpenseCore
import ExpenseStore

/// The report as the CLI's `--format json` prints it.
enum ServerReports {
  static func json(database: AppDatabase, month: Month, today: CivilDate) throws -> String {
    throw APIProblem(status: .notImplemented, detail: "reports need the ExpenseService layer")
  }
}
