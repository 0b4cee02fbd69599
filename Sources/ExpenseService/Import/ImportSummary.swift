import ExpenseCore
import ExpenseImport
import ExpenseRender
import ExpenseStore
import Foundation

/// What one import did: counts, the first few rows of each kind explained, and timing.
public struct ImportSummary: Encodable, Sendable {
  public struct Excluded: Encodable, Sendable {
    public var line: Int
    public var reason: String
  }
  /// One row of a dry run; absent values are null (the JSON convention).
  public struct PreviewRow: Encodable, Sendable {
    public var line: Int
    public var date: CivilDate
    public var amount: Money
    public var description: String
    public var category: String?
    public var ruleID: Int64?
    public var duplicate: Bool

    enum CodingKeys: String, CodingKey { case line, date, amount, description, category, ruleID, duplicate }

    public func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(line, forKey: .line)
      try c.encode(date, forKey: .date)
      try c.encode(amount, forKey: .amount)
      try c.encode(description, forKey: .description)
      try c.encode(category, forKey: .category)
      try c.encode(ruleID, forKey: .ruleID)
      try c.encode(duplicate, forKey: .duplicate)
    }
  }

  /// A row not added (or kept, with `--keep-probable-duplicates`) because a stored row is
  /// probably the same transaction (see `ImportMatching.probableDuplicates`).
  public struct ProbableDuplicate: Codable, Sendable, Equatable {
    public var line: Int
    /// The stored row it duplicates: its id and where it came from (`file:line`).
    public var existingId: Int64
    public var existingSource: String
  }

  /// A row of this file matched with the other side of a transfer between the user's own
  /// accounts: a stored row (`pairedWithId`, `pairedWith` its `file:line`) or another line of
  /// this file (`pairedWith` "line N").
  public struct PairedTransfer: Codable, Sendable, Equatable {
    public var line: Int
    public var pairedWithId: Int64?
    public var pairedWith: String
  }

  public var file: String

  public init(file: String) { self.file = file }
  /// The import's id for `imports remove` (`nil` when nothing was added, or in a dry run).
  public var importId: Int64?
  public var dialect = ""
  public var new = 0
  public var duplicates = 0
  public var excluded = 0
  public var rejected = 0
  public var seconds = 0.0
  public var duplicateDetails: [ImportDuplicate] = []
  public var excludedDetails: [Excluded] = []
  public var rejectedDetails: [String] = []
  /// The same rejected rows as structured issues (line, column, value, message, hint), for a
  /// front end that lists them by field (the HTTP API's `rejectedRows`); not in the CLI's JSON.
  public var rejectedIssues: [ImportIssue] = []
  public var warnings: [String] = []
  /// Balances the file states (`StatementBalance`): stored with the rows, unless a dry run.
  public var balances = 0
  /// The accounts those balances are of (nil: the rows naming none), as stored.
  public var balanceAccounts: Set<String?> = []
  /// Once stored: each of those accounts against its bank (`matches the bank on …` or `off by
  /// … since …`), as `expenses accounts` says it.
  public var accountChecks: [String] = []
  public var preview: [PreviewRow] = []
  /// A dry run's rules by id (what `--preview` names a row's rule by): the rules the import
  /// used, read once. Not in the JSON.
  public var rulePatterns: [Int64: String] = [:]
  /// The latest date of the rows added (or, in a dry run, that would be); not in the JSON.
  public var lastDate: CivilDate?
  /// Rows matched as probable duplicates; not added unless `probableDuplicatesKept`.
  public var probableDuplicates: [ProbableDuplicate] = []
  public var probableDuplicatesKept = false
  /// Rows of this file made one side of a transfer pair.
  public var transfers: [PairedTransfer] = []
  /// The currency of rows that do not state their own, and where it came from.
  public var currency: String?
  public var currencyReason: String?
  /// Lines detection skipped before the header (or the data) as preamble, 1-based.
  public var preambleLines: [Int] { detected?.preambleLines ?? [] }
  /// The layout as detected (for `--preview`; its text form is `dialect`).
  public var detected: DetectedDialect? {
    didSet {
      let fromColumn = detected?.currencyFromColumn ?? false
      currency = fromColumn ? nil : detected?.currency.code
      currencyReason = detected?.currencyReason
    }
  }

  public enum CodingKeys: String, CodingKey {
    case file, importId, dialect, new, duplicates, excluded, rejected, seconds, duplicateDetails, excludedDetails
    case rejectedDetails, warnings, preview, currency, currencyReason, preambleLines
    case probableDuplicates, probableDuplicateDetails, probableDuplicatesKept, transfersPaired, transferDetails
  }

  /// Every key present; `importId`, `currency` and `currencyReason` are null when absent.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(file, forKey: .file)
    try c.encode(importId, forKey: .importId)
    try c.encode(dialect, forKey: .dialect)
    try c.encode(new, forKey: .new)
    try c.encode(duplicates, forKey: .duplicates)
    try c.encode(excluded, forKey: .excluded)
    try c.encode(rejected, forKey: .rejected)
    try c.encode(seconds, forKey: .seconds)
    try c.encode(duplicateDetails, forKey: .duplicateDetails)
    try c.encode(excludedDetails, forKey: .excludedDetails)
    try c.encode(rejectedDetails, forKey: .rejectedDetails)
    try c.encode(warnings, forKey: .warnings)
    try c.encode(preview, forKey: .preview)
    try c.encode(currency, forKey: .currency)
    try c.encode(currencyReason, forKey: .currencyReason)
    try c.encode(preambleLines, forKey: .preambleLines)
    try c.encode(probableDuplicates.count, forKey: .probableDuplicates)
    try c.encode(probableDuplicates, forKey: .probableDuplicateDetails)
    try c.encode(probableDuplicatesKept, forKey: .probableDuplicatesKept)
    try c.encode(transfers.count, forKey: .transfersPaired)
    try c.encode(transfers, forKey: .transferDetails)
  }

  public func json() -> String {
    return ((try? SafeJSON.text(self)) ?? "{}") + "\n"
  }

  /// The warnings, one line each, for stderr (data goes to stdout, remarks about it to stderr).
  public func warningText() -> String {
    warnings.map { "warning: " + TerminalText.sanitize($0) + "\n" }.joined()
  }

  /// The command that shows the imported rows when they are not in the month of `today`
  /// (`report` shows today's month): "See it: expenses report --month 2026-10". Why: a bank
  /// file is usually last month's, and the report of this month would show none of it.
  public func reportHint(today: CivilDate) -> String? {
    guard new > 0, let lastDate, lastDate.calendarMonth != today.calendarMonth else { return nil }
    return "See it: expenses report --month \(lastDate.calendarMonth)"
  }

  /// The summary as lines of text; with `today`, ends with `reportHint(today:)` when it applies.
  public func text(dryRun: Bool, today: CivilDate? = nil) -> String {
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
        var duplicate = row.duplicate ? "  [duplicate]" : ""
        if let twin = probableDuplicate(line: row.line) {
          duplicate = "  [probable duplicate of \(clean(twin))]"
        } else if let other = transferPartner(line: row.line) {
          duplicate = "  [transfer with \(clean(other))]"
        }
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
        + "\(excluded) excluded, \(rejected) rejected in \(String(format: "%.2f", seconds))\(FittedText.noBreakSpace)s")
    if let detected, let preamble = detected.preambleText {
      lines.append("Skipped \(preamble) before the \(detected.headerLine == nil ? "data" : "header")")
    }
    if let currencyReason, new > 0 || dryRun {
      lines.append("Currency: \(currency ?? "each row's") (\(clean(currencyReason)))")
    }
    // One signed amount column: which sign was read as money out, and what decided it.
    if let detected, new > 0 || dryRun, !detected.signReason.isEmpty,
      [.signedNegativeIsSpending, .signedPositiveIsSpending].contains(detected.signConvention)
    {
      let sign = detected.signConvention == .signedNegativeIsSpending ? "negative" : "positive"
      lines.append("Amounts: \(sign) = money out (\(clean(detected.signReason)))")
    }
    if let detected, detected.encoding != .utf8 || detected.encodingReason.hasPrefix("UTF-8 with invalid") {
      // Said whenever the file was not plain UTF-8: which encoding was used, and what chose it.
      lines.append("Encoding: \(detected.encoding.rawValue) (\(clean(detected.encodingReason)))")
    }
    if balances > 0 {
      let stated = balances == 1 ? "1 balance" : "\(balances) balances"
      lines.append(
        "The statement states \(stated): \(dryRun ? "it would be" : "kept and") checked against the rows "
          + "('expenses accounts')")
      for check in accountChecks { lines.append("  \(clean(check))") }
    }
    if let importId { lines.append("Undo with: expenses imports remove \(importId)") }
    if duplicates > 0 {
      lines.append("Skipped as duplicates (same date, amount, description and account as a stored row):")
      for duplicate in duplicateDetails {
        lines.append("  line \(duplicate.line): already imported from \(clean(duplicate.existingSource))")
      }
      if duplicates > duplicateDetails.count { lines.append("  … and \(duplicates - duplicateDetails.count) more") }
    }
    lines += matchingLines(dryRun: dryRun)
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
    if !dryRun, let today, let hint = reportHint(today: today) { lines.append(hint) }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension ImportSummary {
  /// What row `line` is probably a duplicate of (`#id, file:line`), if any.
  public func probableDuplicate(line: Int) -> String? {
    probableDuplicates.first { $0.line == line }.map { "#\($0.existingId), \($0.existingSource)" }
  }

  /// What row `line` is paired with as a transfer, if any.
  public func transferPartner(line: Int) -> String? {
    transfers.first { $0.line == line }.map { row in (row.pairedWithId.map { "#\($0), " } ?? "") + row.pairedWith }
  }

  /// The probable duplicates and the transfer pairs, each row with what it matched.
  func matchingLines(dryRun: Bool) -> [String] {
    let clean = TerminalText.sanitize
    var lines: [String] = []
    if !probableDuplicates.isEmpty {
      let count = probableDuplicates.count
      let what = "\(count) probable duplicate\(count == 1 ? "" : "s")"
      lines.append(
        probableDuplicatesKept
          ? "Kept \(what) (--keep-probable-duplicates): same amount and payee as a stored row, dates at most \(ImportMatching.days) days apart:"
          : "\(dryRun ? "Would skip" : "Skipped") \(what) (same amount and payee as a stored row of another import, dates at most \(ImportMatching.days) days apart):"
      )
      for row in probableDuplicates {
        lines.append("  line \(row.line): probably #\(row.existingId), \(clean(row.existingSource))")
      }
      if !probableDuplicatesKept { lines.append("Keep them with: --keep-probable-duplicates") }
    }
    if !transfers.isEmpty {
      lines.append(
        "\(dryRun ? "Would match" : "Matched") \(transfers.count) row\(transfers.count == 1 ? "" : "s") as transfers between your own accounts (the same amount out of one and into the other):"
      )
      for row in transfers {
        let id = row.pairedWithId.map { "#\($0), " } ?? ""
        lines.append("  line \(row.line): with \(id)\(clean(row.pairedWith))")
      }
      if !dryRun { lines.append("A wrong match is undone with: expenses transfers unpair ID") }
    }
    return lines
  }

  /// Counts one event that is not a row (rows travel in batches, stored rows to the writer), keeping the first
  /// `detailLimit` of each kind explained and every rejected row in `rejects`.
  mutating func record(_ event: ImportEvent, rejects: RejectsWriter?, detailLimit: Int) throws {
    switch event {
    case .row, .stored:
      break
    case .excluded(let line, let reason):
      excluded += 1
      if excludedDetails.count < detailLimit { excludedDetails.append(.init(line: line, reason: reason)) }
    case .rejected(let issue):
      rejected += 1
      if rejectedDetails.count < detailLimit {
        rejectedDetails.append(issue.description)
        rejectedIssues.append(issue)
      }
      try rejects?.write(issue)
    case .warning(let message):
      warnings.append(message)
    case .balance:
      balances += 1
    }
  }
}
