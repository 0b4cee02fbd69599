import ExpenseCore
import ExpenseRender

/// One report as a front end asks for it. Every value is resolved by the front end (the CLI
/// reads the terminal, the HTTP API the query string): the service reads no clock, terminal or
/// environment, so the same request gives the same bytes.
public struct ReportRequest: Sendable {
  /// The month to report on (default: the month of `today`).
  public var month: Month?
  /// The day that counts as today (pace, projection, days left).
  public var today: CivilDate
  public var format: ReportFormat = .json
  /// Terminal columns for `text` (at least 20); machine formats ignore it.
  public var width = 80
  public var glyphs: GlyphSet = .unicode
  public var plain = false
  public var color = false
  /// Expense rows followed by their details (text).
  public var details = false
  /// Sections to expand or collapse for this report: ids or "all".
  public var expand: [String] = []
  public var collapse: [String] = []
  /// Remember `expand`/`collapse` as the saved states.
  public var save = false
  /// `html` only: the script the served page loads (`expenses serve`); nil for the static page.
  public var pageScript: String?
  /// `html` only: the served page's month links and hooks (`PageLinks`); nil for the static page.
  public var pageLinks: PageLinks?
  /// How many months the Trends section holds, ending with the report's (`report --months`);
  /// the text shows as many of the newest as fit its width.
  public var trendMonths = ReportLoader.defaultTrendMonths

  public init(today: CivilDate, month: Month? = nil, format: ReportFormat = .json) {
    self.today = today
    self.month = month
    self.format = format
  }
}
