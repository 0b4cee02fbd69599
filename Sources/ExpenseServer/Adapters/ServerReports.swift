import ExpenseCore
import ExpenseService
import ExpenseStore

/// The report as `expenses report --month M --today T --format json` prints it: the same
/// service call with the same request, so the same bytes.
enum ServerReports {
  static func json(database: AppDatabase, month: Month, today: CivilDate) throws -> String {
    try ReportService(database: database).render(ReportRequest(today: today, month: month, format: .json))
  }

  /// The page `expenses report --month M --today T --format html` prints, plus the script that
  /// saves toggles (`PageRoutes.scriptPath`) and the policy that lets it run.
  static func page(database: AppDatabase, month: Month, today: CivilDate) throws -> String {
    var request = ReportRequest(today: today, month: month, format: .html)
    request.pageScript = PageRoutes.scriptPath
    return try ReportService(database: database).render(request)
  }
}
