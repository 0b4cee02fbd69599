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
  case shiftJIS = "shift_jis"
  case eucJP = "euc-jp"
  case eucKR = "euc-kr"
  case gb18030
  case big5
  case windows1250 = "windows-1250"
  case windows1251 = "windows-1251"
  case iso88592 = "iso-8859-2"
  case iso885915 = "iso-8859-15"

  /// The iconv converter's name for encodings transcoded through `IconvSource` (nil: read
  /// by the importer itself).
  public var iconvName: String? {
    switch self {
    case .utf8, .utf16le, .utf16be, .windows1252, .latin1: return nil
    case .shiftJIS: return "CP932"  // Shift_JIS with the NEC and IBM rows Japanese banks use
    case .eucJP: return "EUC-JP-MS"
    case .eucKR: return "CP949"  // EUC-KR and its Unified Hangul superset
    case .gb18030: return "GB18030"  // a superset of GBK and GB2312
    case .big5: return "BIG5-HKSCS"
    case .windows1250: return "CP1250"
    case .windows1251: return "CP1251"
    case .iso88592: return "ISO-8859-2"
    case .iso885915: return "ISO-8859-15"
    }
  }

  /// Reads an `--encoding` value with the usual aliases (`cp1252`, `iso-8859-1`, `sjis`, `gbk`).
  public init?(name: String) {
    let key = name.lowercased().filter { $0.isLetter || $0.isNumber }
    let aliases: [String: TextEncoding] = [
      "utf8": .utf8, "utf16le": .utf16le, "utf16be": .utf16be,
      "windows1252": .windows1252, "cp1252": .windows1252, "win1252": .windows1252,
      "latin1": .latin1, "iso88591": .latin1, "l1": .latin1,
      "shiftjis": .shiftJIS, "sjis": .shiftJIS, "cp932": .shiftJIS, "windows31j": .shiftJIS, "mskanji": .shiftJIS,
      "eucjp": .eucJP, "ujis": .eucJP, "euckr": .eucKR, "cp949": .eucKR, "uhc": .eucKR,
      "gb18030": .gb18030, "gbk": .gb18030, "gb2312": .gb18030, "cp936": .gb18030, "euccn": .gb18030,
      "big5": .big5, "big5hkscs": .big5, "cp950": .big5,
      "windows1250": .windows1250, "cp1250": .windows1250, "windows1251": .windows1251, "cp1251": .windows1251,
      "iso88592": .iso88592, "latin2": .iso88592, "iso885915": .iso885915, "latin9": .iso885915,
    ]
    guard let encoding = aliases[key] else { return nil }
    self = encoding
  }
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
