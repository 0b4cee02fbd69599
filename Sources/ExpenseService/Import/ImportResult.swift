import ExpenseImport
import Foundation

/// An upload's import options (the query mirrors `expenses import`'s flags).
public struct UploadImport: Sendable {
  /// The name the rows' source is stored under.
  public var fileName: String
  /// A dry run (`--dry-run`): nothing is written.
  public var preview: Bool
  public var skipInvalid: Bool
  public var flags: ImportFlags
  /// `keepProbableDuplicates`: add the rows found to be probably stored already.
  public var keepProbableDuplicates = false
  /// What error messages call the upload: the `file` the client gave, or "the upload" (never
  /// the server's temporary file).
  public var messageName: String

  public init(fileName: String, preview: Bool, skipInvalid: Bool, flags: ImportFlags, messageName: String? = nil) {
    self.fileName = fileName
    self.messageName = messageName ?? fileName
    self.preview = preview
    self.skipInvalid = skipInvalid
    self.flags = flags
  }
}

/// What an import did, as the API reports it.
public struct ImportResult: Sendable, Codable, Equatable {
  public struct LineReason: Sendable, Codable, Equatable {
    public var line: Int
    public var reason: String
  }
  public var importId: Int64?
  public var file: String
  public var preview: Bool
  public var new: Int
  public var duplicates: Int
  public var excluded: Int
  public var rejected: Int
  public var currency: String?
  public var currencyReason: String?
  public var dialect: String?
  public var rejectedRows: [LineReason]
  public var excludedRows: [LineReason]
  public var warnings: [String]
  public var probableDuplicates = 0
  public var probableDuplicateRows: [ImportSummary.ProbableDuplicate] = []
  public var transfersPaired = 0
}

extension ImportResult {
  /// Rejected and excluded rows an upload's answer lists one by one.
  public static let detailLimit = 10_000

  /// The API's view of an import's summary: the same counts, rows listed by line and reason.
  public init(_ summary: ImportSummary, file: String, preview: Bool) {
    self.init(
      importId: summary.importId, file: file, preview: preview, new: summary.new,
      duplicates: summary.duplicates, excluded: summary.excluded, rejected: summary.rejected,
      currency: summary.currency, currencyReason: summary.currencyReason, dialect: summary.dialect,
      rejectedRows: summary.rejectedIssues.map(ImportResult.rejectedRow),
      excludedRows: summary.excludedDetails.map { .init(line: $0.line, reason: $0.reason) },
      warnings: summary.warnings)
    probableDuplicates = summary.probableDuplicates.count
    probableDuplicateRows = summary.probableDuplicates
    transfersPaired = summary.transfers.count
  }

  /// A rejected row as the API lists it: its line, and the reason with the column and hint.
  static func rejectedRow(_ issue: ImportIssue) -> LineReason {
    let column = issue.columnName.map { " (column \"\($0)\")" } ?? ""
    let hint = issue.hint.isEmpty ? "" : "; " + issue.hint
    return .init(line: issue.line, reason: issue.message + column + hint)
  }
}
