import ExpenseImport
import ExpenseService
import ExpenseStore
import Foundation

/// Imports an uploaded file through the service `expenses import` uses.
enum ServerImports {
  /// Rejected and excluded rows listed one by one (the counts are always exact).
  static let detailLimit = 10_000

  static func run(database: AppDatabase, path: String, upload: UploadImport, now: Date) throws -> ImportResult {
    var request = ImportRequest(path: path, options: try upload.flags.options(database: database))
    request.sourceName = upload.fileName
    request.messageName = upload.messageName
    request.skipInvalid = upload.skipInvalid
    request.dryRun = upload.preview
    request.importedAt = now
    request.detailLimit = detailLimit
    request.previewLimit = 0
    let summary = try ImportService(database: database).run(request)
    return ImportResult(
      importId: summary.importId, file: upload.fileName, preview: upload.preview, new: summary.new,
      duplicates: summary.duplicates, excluded: summary.excluded, rejected: summary.rejected,
      currency: summary.currency, currencyReason: summary.currencyReason, dialect: summary.dialect,
      rejectedRows: summary.rejectedIssues.map(rejectedRow),
      excludedRows: summary.excludedDetails.map { .init(line: $0.line, reason: $0.reason) },
      warnings: summary.warnings)
  }

  /// A rejected row as the API lists it: its line, and the reason with the column and hint.
  static func rejectedRow(_ issue: ImportIssue) -> ImportResult.LineReason {
    let column = issue.columnName.map { " (column \"\($0)\")" } ?? ""
    let hint = issue.hint.isEmpty ? "" : "; " + issue.hint
    return .init(line: issue.line, reason: issue.message + column + hint)
  }
}
