import ExpenseCore
import ExpenseService
import ExpenseStore

/// The report as `expenses report --month M --today T --format json` prints it: the same
/// service call with the same request, so the same bytes.
enum ServerReports {
  static func json(database: AppDatabase, month: Month, today: CivilDate) throws -> String {
    try ReportService(database: database).render(ReportRequest(today: today, month: month, format: .json))
  }
}
