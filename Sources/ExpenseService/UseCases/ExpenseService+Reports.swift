import ExpenseCore
import ExpenseRender
import ExpenseStore

extension ExpenseService {
  /// The rendered report (any format), ending with a line break: what `report`, `demo`,
  /// `GET /v1/reports/{month}` and the served page print.
  public func renderReport(_ request: ReportRequest) throws -> String {
    try ReportService(store: store, user: user).render(request)
  }

  /// Writes the report into `out` as `renderReport` renders it; a JSON report's expense rows
  /// are written as they are read (see `ReportService.write`). Errors of `out`'s drain are
  /// rethrown as they are; `out` is not flushed.
  public func writeReport(_ request: ReportRequest, into out: inout OutputBuffer) throws {
    guard request.width >= 20 || !request.format.isTerminal else { throw ServiceError.widthTooSmall(request.width) }
    try ReportService(store: store, user: user).write(request, into: &out)
  }

  /// The month's report with every section loaded, expense rows (with where each category came
  /// from) included: what the interactive report folds on screen without asking again.
  public func fullReport(month: Month, today: CivilDate) throws -> BudgetReport {
    try ReportLoader(store: store).report(
      month: month, today: today, including: Set(SectionID.allCases), explainCategories: true)
  }

  /// The report JSON of `month` as the API serves it (`report --format json` byte for byte).
  public func reportJSON(month: Month, today: CivilDate) throws -> String {
    try renderReport(ReportRequest(today: today, month: month, format: .json))
  }

  /// The HTML page of `month`, loading `script` (the served page's toggles).
  public func reportPage(month: Month, today: CivilDate, script: String?) throws -> String {
    var request = ReportRequest(today: today, month: month, format: .html)
    request.pageScript = script
    return try renderReport(request)
  }

  /// The revision `/v1/changes` reports: grows with every write, survives restarts.
  public func revision() throws -> Int64 { try store.revision() }

  /// The schema version of the store this service serves (`/health`).
  public var schemaVersion: Int { store.schemaVersion }

  /// Changes whenever anything is committed by anyone (cheap: caches ask it per request).
  public func changeStamp() throws -> Int64 { try store.changeStamp() }
}
