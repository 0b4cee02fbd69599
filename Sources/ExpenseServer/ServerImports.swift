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
      rejectedRows: summary.rejectedDetails.map { rejectedRow($0, path: path, name: upload.fileName) },
      excludedRows: summary.excludedDetails.map { .init(line: $0.line, reason: $0.reason) },
      warnings: summary.warnings)
  }

  /// An issue's text is `PATH:LINE[:COLUMN]: message` and indented lines (value, hint); the
  /// path is the upload's temporary file, which has no colon, so the line is the first number.
  static func rejectedRow(_ text: String, path: String, name: String) -> ImportResult.LineReason {
    var rest = Substring(text)
    if rest.hasPrefix(path + ":") { rest = rest.dropFirst(path.count + 1) }
    let line = Int(rest.prefix { $0.isNumber }) ?? 0
    var reason = rest.drop { $0 != " " }.dropFirst()
    reason = reason.split(separator: "\n", omittingEmptySubsequences: false).first ?? reason
    let hint = text.split(separator: "\n").first { $0.hasPrefix("  hint: ") }.map { "; " + $0.dropFirst(8) } ?? ""
    return .init(line: line, reason: String(reason) + hint)
  }
}
