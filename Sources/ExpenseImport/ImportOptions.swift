import ExpenseCore

/// What a CSV column means to the importer.
public enum ColumnRole: String, CaseIterable, Sendable, Codable {
  /// The transaction date.
  case date
  /// Payee, merchant or memo text (several columns are joined with ` / `).
  case description
  /// One signed amount (negative = money out unless `spending` is `.positive`).
  case amount
  /// Money out, unsigned (`Paid out`, `Soll`, `Withdrawals`).
  case debit
  /// Money in, unsigned (`Paid in`, `Haben`, `Deposits`).
  case credit
  /// A direction marker for an unsigned amount (`Af`/`Bij`, `D`/`C`, `DR`/`CR`, `Out`/`In`).
  case direction
  /// The bank's own category.
  case category
  /// An ISO 4217 code per row.
  case currency
  /// The account name or IBAN.
  case account
  /// Booking state; pending, declined, reverted, failed and cancelled rows are excluded.
  case status
  /// A fee charged on top of the amount (its magnitude is an extra outflow).
  case fee
  /// A column to ignore.
  case ignore = "-"
}

/// Which sign a single amount column uses for spending.
public enum SpendingSign: String, Sendable, Codable {
  /// Negative amounts are money out (most bank accounts).
  case negative
  /// Positive amounts are money out (many US credit card exports).
  case positive
}

/// A text encoding the importer can read.
public enum TextEncoding: String, Sendable, Codable, CaseIterable {
  case utf8 = "utf-8"
  case utf16le = "utf-16le"
  case utf16be = "utf-16be"
  case windows1252 = "windows-1252"
  case latin1
}

/// Everything a user can tell the importer about a file; all `nil`/empty means "detect".
///
/// Codable so the CLI can save it as a named profile.
public struct ImportOptions: Sendable, Codable, Equatable {
  /// `--columns`: positional roles for a file without a header row (or to override the header).
  public var columns: [ColumnRole]?
  /// `--column NAME=ROLE`: the role of one named column (header name, case-insensitive).
  public var namedColumns: [String: ColumnRole]
  /// `--delimiter`: one single-byte character (`,` `;` `|`, `\t` or `tab`).
  public var delimiter: String?
  /// `--encoding`.
  public var encoding: TextEncoding?
  /// `--date-format`: tokens `YYYY YY MM M DD D` with any separators, e.g. `DD.MM.YYYY`, `YYYYMMDD`.
  public var dateFormat: String?
  /// `--decimal-mark`: `.` or `,`.
  public var decimalMark: String?
  /// `--spending`: sign of spending in a single amount column.
  public var spending: SpendingSign?
  /// `--currency`: ISO code used when a row has no currency of its own.
  public var currency: String?
  /// `--account`: account name stored on every row (and part of the fingerprint).
  public var account: String?
  /// `--skip-lines N`: physical lines to skip before looking for the header.
  public var skipLines: Int?
  /// `--skip-when COLUMN=VALUE` (repeatable): exclude rows whose column equals the value
  /// (case-insensitive, trimmed). COLUMN is a header name, a role name or a 1-based index.
  public var skipWhen: [String]

  public init() {
    namedColumns = [:]
    skipWhen = []
  }

  enum CodingKeys: String, CodingKey {
    case columns, namedColumns, delimiter, encoding, dateFormat, decimalMark, spending, currency
    case account, skipLines, skipWhen
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    columns = try c.decodeIfPresent([ColumnRole].self, forKey: .columns)
    namedColumns = try c.decodeIfPresent([String: ColumnRole].self, forKey: .namedColumns) ?? [:]
    delimiter = try c.decodeIfPresent(String.self, forKey: .delimiter)
    encoding = try c.decodeIfPresent(TextEncoding.self, forKey: .encoding)
    dateFormat = try c.decodeIfPresent(String.self, forKey: .dateFormat)
    decimalMark = try c.decodeIfPresent(String.self, forKey: .decimalMark)
    spending = try c.decodeIfPresent(SpendingSign.self, forKey: .spending)
    currency = try c.decodeIfPresent(String.self, forKey: .currency)
    account = try c.decodeIfPresent(String.self, forKey: .account)
    skipLines = try c.decodeIfPresent(Int.self, forKey: .skipLines)
    skipWhen = try c.decodeIfPresent([String].self, forKey: .skipWhen) ?? []
  }
}

/// One validated transaction row read from a file.
public struct ImportedRow: Sendable, Equatable {
  // `fingerprintHash` is declared first so that the memberwise initializer (which the optimizer
  // builds in place, without copying the Strings) differs from the public one, which uses it.
  /// The stable 64-bit FNV-1a fingerprint (see `Fingerprint`).
  public var fingerprintHash: UInt64
  /// 1-based physical line the record starts on.
  public var line: Int
  public var date: CivilDate
  /// Signed amount: negative is money out; fees already included.
  public var amount: Money
  /// Trimmed, whitespace-collapsed description.
  public var description: String
  public var category: String?
  public var account: String?

  /// The fingerprint as 16 hex digits (made on demand: the import binds the integer).
  public var fingerprint: String {
    let hex = String(fingerprintHash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}

extension ImportedRow {
  public init(
    line: Int, date: CivilDate, amount: Money, description: String, category: String?, account: String?,
    fingerprintHash: UInt64
  ) {
    self.init(
      fingerprintHash: fingerprintHash, line: line, date: date, amount: amount, description: description,
      category: category, account: account)
  }
}

/// What `CSVImporter.run` reports, in file order.
public enum ImportEvent {
  /// A good transaction.
  case row(ImportedRow)
  /// A row deliberately left out (pending status, `--skip-when`, balance/trailer line).
  case excluded(line: Int, reason: String)
  /// A bad row (only when `skipInvalid` is true).
  case rejected(ImportIssue)
  /// Something the user should know (e.g. most amounts positive: maybe `--spending positive`).
  case warning(String)
}

/// Progress of a running import.
public struct ImportProgress: Sendable {
  /// Bytes of the file read so far.
  public var bytesRead: Int64
  /// The file size when known.
  public var totalBytes: Int64?
  /// Records processed so far.
  public var rows: Int
}
