import ExpenseCore
import ExpenseImport
import ExpenseRender
import ExpenseStore
import Foundation

/// What one import did: counts, the first few rows of each kind explained, and timing.
struct ImportSummary: Encodable {
  struct Excluded: Encodable {
    var line: Int
    var reason: String
  }
  struct PreviewRow: Encodable {
    var line: Int
    var date: CivilDate
    var amount: Money
    var description: String
    var category: String?
    var ruleID: Int64?
    var duplicate: Bool
  }

  var file: String
  /// The import's id for `imports remove` (`nil` when nothing was added, or in a dry run).
  var importId: Int64?
  var dialect = ""
  var new = 0
  var duplicates = 0
  var excluded = 0
  var rejected = 0
  var seconds = 0.0
  var duplicateDetails: [ImportSession.Duplicate] = []
  var excludedDetails: [Excluded] = []
  var rejectedDetails: [String] = []
  var warnings: [String] = []
  var preview: [PreviewRow] = []
  /// The currency of rows that do not state their own, and where it came from.
  var currency: String?
  var currencyReason: String?
  /// The layout as detected (for `--preview`; its text form is `dialect`).
  var detected: DetectedDialect? {
    didSet {
      let fromColumn = detected?.currencyFromColumn ?? false
      currency = fromColumn ? nil : detected?.currency.code
      currencyReason = detected?.currencyReason
    }
  }

  enum CodingKeys: String, CodingKey {
    case file, importId, dialect, new, duplicates, excluded, rejected, seconds, duplicateDetails, excludedDetails
    case rejectedDetails, warnings, preview, currency, currencyReason
  }

  func json() -> String {
    return ((try? SafeJSON.text(self)) ?? "{}") + "\n"
  }

  /// The warnings, one line each, for stderr (data goes to stdout, remarks about it to stderr).
  func warningText() -> String {
    warnings.map { "warning: " + TerminalText.sanitize($0) + "\n" }.joined()
  }

  func text(dryRun: Bool) -> String {
    let clean = TerminalText.sanitize
    var lines: [String] = []
    if dryRun {
      lines.append("Dry run of \(clean(file)): nothing was written.")
      lines.append("Detected:")
      // Line by line: the sanitizer would fold the description's line breaks into spaces.
      for line in dialect.split(separator: "\n") { lines.append("  " + clean(String(line))) }
      for row in preview {
        let rule = row.ruleID.map { " (rule \($0))" } ?? ""
        let category = row.category.map { clean($0) + rule } ?? "uncategorized"
        let duplicate = row.duplicate ? "  [duplicate]" : ""
        lines.append(
          "  line \(row.line): \(row.date)  \(row.amount.formatted)  \(clean(row.description)) → \(category)\(duplicate)"
        )
      }
    }
    if dryRun && preview.count < new + duplicates {
      lines.append("  … \(new + duplicates - preview.count) more rows (--preview --limit N shows a chosen number)")
    }
    let verb = dryRun ? "Would import" : "Imported"
    lines.append(
      "\(verb) \(clean(file)): \(new) new, \(duplicates) duplicate\(duplicates == 1 ? "" : "s"), "
        + "\(excluded) excluded, \(rejected) rejected in \(String(format: "%.2f", seconds)) s")
    if let currencyReason, new > 0 || dryRun {
      lines.append("Currency: \(currency ?? "each row's") (\(clean(currencyReason)))")
    }
    if let importId { lines.append("Undo with: expenses imports remove \(importId)") }
    if duplicates > 0 {
      lines.append("Skipped as duplicates (same date, amount, description and account as a stored row):")
      for duplicate in duplicateDetails {
        lines.append("  line \(duplicate.line): already imported from \(clean(duplicate.existingSource))")
      }
      if duplicates > duplicateDetails.count { lines.append("  … and \(duplicates - duplicateDetails.count) more") }
    }
    if excluded > 0 {
      lines.append("Excluded:")
      for row in excludedDetails { lines.append("  line \(row.line): \(clean(row.reason))") }
      if excluded > excludedDetails.count { lines.append("  … and \(excluded - excludedDetails.count) more") }
    }
    if rejected > 0 {
      lines.append("Rejected:")
      for issue in rejectedDetails {
        for part in issue.split(separator: "\n") { lines.append("  " + clean(String(part))) }
      }
      if rejected > rejectedDetails.count { lines.append("  … and \(rejected - rejectedDetails.count) more") }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
