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

  /// The report as one line that fits the width (`report --brief`), with its alarm.
  public func briefReport(_ request: ReportRequest) throws -> (text: String, alarm: BudgetAlarm) {
    guard request.width >= 20 else { throw ServiceError.widthTooSmall(request.width) }
    var numbers = request
    numbers.expand = []
    numbers.collapse = []
    numbers.save = false
    let (report, _) = try ReportService(store: store, user: user).report(for: numbers)
    return (BriefRenderer(width: request.width, glyphs: request.glyphs).render(report), report.alarm)
  }

  /// Whether a category of the request's month is over or projected over (`report
  /// --exit-status`): the month's numbers, read again (a few monthly sums).
  public func reportAlarm(_ request: ReportRequest) throws -> BudgetAlarm {
    try ReportLoader(store: store).report(
      month: request.month ?? request.today.calendarMonth, today: request.today, including: []
    ).alarm
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
  public func reportPage(month: Month, today: CivilDate, script: String?, pinnedToday: Bool = false) throws -> String {
    var request = ReportRequest(today: today, month: month, format: .html)
    request.pageScript = script
    if script != nil {
      request.pageLinks = PageLinks(
        month: month, today: pinnedToday ? today : nil, currency: try store.defaultCurrency())
    }
    return try renderReport(request)
  }

  /// The revision `/v1/changes` reports: grows with every write, survives restarts.
  public func revision() throws -> Int64 { try store.revision() }

  /// The schema version of the store this service serves (`/health`).
  public var schemaVersion: Int { store.schemaVersion }

  /// Changes whenever anything is committed by anyone (cheap: caches ask it per request).
  public func changeStamp() throws -> Int64 { try store.changeStamp() }

  /// The stamps of `ledgers` and of the directory in one read, when the store reads them so
  /// (`LedgerStore.stamps(of:)`).
  public func stamps(of ledgers: [String]) throws -> LedgerStamps? { try store.stamps(of: ledgers) }
}
