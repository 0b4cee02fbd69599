/// Output formats of a report.
public enum ReportFormat: String, CaseIterable, Sendable {
  case text, json, csv, md, html

  /// Whether the format is for a terminal (laid out to a width, sections folded), as opposed to
  /// a document or data for another program, which carries every section's content whatever
  /// the saved states (the `sections` array still reports them).
  public var isTerminal: Bool { self == .text }
}
