import ExpenseCore

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
  /// `--replace-invalid`: keep a row whose text has bytes invalid in its encoding, with U+FFFD
  /// for them (a warning names each line and column); without it such a row is refused.
  public var replaceInvalid: Bool?

  public init() {
    namedColumns = [:]
    skipWhen = []
  }

  enum CodingKeys: String, CodingKey {
    case columns, namedColumns, delimiter, encoding, dateFormat, decimalMark, spending, currency
    case account, skipLines, skipWhen, replaceInvalid
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
    replaceInvalid = try c.decodeIfPresent(Bool.self, forKey: .replaceInvalid)
  }
}
