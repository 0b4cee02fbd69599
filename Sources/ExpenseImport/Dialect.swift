import ExpenseCore
import Foundation

/// One column as the importer understood it.
public struct DetectedColumn: Sendable, Equatable {
  /// 1-based position.
  public var index: Int
  /// Header name, `nil` without a header row.
  public var name: String?
  /// What the column is used for; `nil` when it is ignored.
  public var role: ColumnRole?
  /// Up to two non-empty values from the sample, as the file holds them (for `--preview`).
  public var samples: [String] = []
}

/// How amounts are signed in a file.
public enum SignConvention: String, Sendable, Equatable {
  /// One amount column, negative is money out.
  case signedNegativeIsSpending = "one amount column, negative = money out"
  /// One amount column, positive is money out (`--spending positive`).
  case signedPositiveIsSpending = "one amount column, positive = money out"
  /// Separate debit (out) and credit (in) columns.
  case debitCredit = "debit column = money out, credit column = money in"
  /// An unsigned amount with a direction column.
  case direction = "unsigned amount with a direction column"
}

/// The layout the importer detected (or was told), printable for `--dry-run`.
public struct DetectedDialect: Sendable, Equatable, CustomStringConvertible {
  public var encoding: TextEncoding
  /// Why: `UTF-8 byte order mark`, `valid UTF-8`, `--encoding`, …
  public var encodingReason: String
  /// The delimiter as text (`,` `;` `\t` `|`).
  public var delimiter: String
  /// 1-based line of the header row, `nil` when the file has none.
  public var headerLine: Int?
  /// 1-based line of the first record treated as data.
  public var dataStartLine: Int
  /// Non-blank lines skipped before the header (or the data) as preamble, 1-based.
  public var preambleLines: [Int] = []
  /// "3 preamble lines (1-3)", or nil when none was skipped.
  public var preambleText: String? {
    guard !preambleLines.isEmpty else { return nil }
    let count = preambleLines.count
    return "\(count) preamble line\(count == 1 ? "" : "s") (\(DetectedDialect.ranges(preambleLines)))"
  }

  /// `1-3, 5` for [1, 2, 3, 5].
  static func ranges(_ lines: [Int]) -> String {
    var parts: [String] = []
    var run: (first: Int, last: Int)?
    for line in lines {
      if let current = run, line == current.last + 1 {
        run = (current.first, line)
        continue
      }
      if let current = run {
        parts.append(current.first == current.last ? "\(current.first)" : "\(current.first)-\(current.last)")
      }
      run = (line, line)
    }
    if let current = run {
      parts.append(current.first == current.last ? "\(current.first)" : "\(current.first)-\(current.last)")
    }
    return parts.joined(separator: ", ")
  }
  public var columns: [DetectedColumn]
  /// `DD/MM/YYYY`-style pattern.
  public var dateFormat: String
  public var decimalMark: String
  public var signConvention: SignConvention
  /// Currency used when a row has none.
  public var currency: Currency
  /// Where `currency` came from: a header, the amounts, `--currency`, the database's default.
  public var currencyReason: String = ""
  /// What decided `signConvention`: `--spending`, a balance column, money-in words, a card's
  /// signature, or no evidence (then negative = money out, as most bank accounts).
  public var signReason: String = ""
  /// Each row states its currency (a currency column): `currency` is only the fallback.
  public var currencyFromColumn: Bool { columns.contains { $0.role == .currency } }
  /// Things the user should check (also emitted as `.warning` events by `run`).
  public var warnings: [String]
  /// The file's format; for anything but CSV, `settings` says what its reader found and the
  /// CSV-only fields (delimiter, header, columns) are unused.
  public var format: StatementFormat = .csv
  /// What a statement reader found (format version, account, currency …) and where.
  public var settings: [StatementSetting] = []

  /// Where the CSV description's values start: after `decimal mark: ` and a space.
  static let labelColumn = 15

  public var description: String {
    var lines: [String] = []
    if format != .csv {
      // One column for every value: the labels padded to the longest (at least the CSV's).
      let column = max(DetectedDialect.labelColumn, (settings.map(\.name.count).max() ?? 0) + 2)
      func label(_ name: String) -> String { (name + ":").padding(toLength: column, withPad: " ", startingAt: 0) }
      lines.append("\(label("encoding"))\(encoding.rawValue) (\(encodingReason))")
      for setting in settings {
        lines.append("\(label(setting.name))\(visibleControlCharacters(setting.value)) (\(setting.source))")
      }
      for warning in warnings { lines.append("warning: \(warning)") }
      return lines.joined(separator: "\n")
    }
    lines.append("encoding:      \(encoding.rawValue) (\(encodingReason))")
    lines.append("delimiter:     \(delimiter == "\t" ? "\\t (tab)" : delimiter)")
    if let headerLine {
      lines.append("header:        line \(headerLine)")
    } else {
      lines.append("header:        none")
    }
    lines.append("data from:     line \(dataStartLine)")
    if let preambleText { lines.append("skipped:       \(preambleText)") }
    lines.append("date format:   \(dateFormat)")
    lines.append("decimal mark:  \(decimalMark)")
    lines.append("amounts:       \(signConvention.rawValue)" + (signReason.isEmpty ? "" : " (\(signReason))"))
    if currencyFromColumn {
      lines.append("currency:      each row's, from the currency column")
    } else {
      lines.append("currency:      \(currency.code) (from \(currencyReason)) unless a row says otherwise")
    }
    lines.append("columns:")
    for column in columns {
      let name = column.name.map { "\"\(visibleControlCharacters($0))\"" } ?? "(no name)"
      lines.append("  \(column.index). \(name) → \(column.role?.rawValue ?? "ignored")")
    }
    for warning in warnings { lines.append("warning: \(warning)") }
    return lines.joined(separator: "\n")
  }
}

/// Everything `run` needs, resolved to column indexes and parsers.
struct Plan {
  var encoding: TextEncoding
  var encodingReason: String
  var fieldText: FieldText
  var delimiter: UInt8
  var headerLine: Int?
  var dataStartLine: Int
  var header: [String]
  /// Non-blank lines before the header (or the data) that detection skipped.
  var preambleLines: [Int] = []
  /// Expected number of fields in a data row.
  var width: Int
  /// Fewest fields accepted (header width without trailing empty names).
  var minWidth: Int
  var roles: [ColumnRole?]
  var date = 0
  var descriptions: [Int] = []
  var amount: Int?
  var debit: Int?
  var credit: Int?
  var direction: Int?
  var currencyColumn: Int?
  var status: Int?
  var fee: Int?
  var category: Int?
  var accountColumn: Int?
  var dateFormat = DateFormat(order: .ymd)
  var decimalMark: UInt8 = 0x2E
  var sign: SignConvention = .signedNegativeIsSpending
  var signReason = ""
  /// A running balance column the rows move (`SignEvidence.balanceMoves`): its values are the
  /// account's balance after each row, kept as the statement's balances; `balanceNegated` when
  /// it counts the other way from the stored amounts (a card's debt), so it is stored negated.
  var balanceColumn: Int?
  var balanceNegated = false
  var currency: Currency
  var currencyReason = ""
  var account: String?
  var skipWhen: [(column: Int, value: String, text: String)] = []
  /// Up to two non-empty sampled values per column, for the dialect's description.
  var samples: [[String]] = []
  /// Every column's non-empty sampled values, trimmed: made once, read by each detection step.
  var columnValues: [[String]] = []

  /// The non-empty sampled values of `column` (none for nil or a column past the sample's).
  func values(_ column: Int?) -> [String] {
    guard let column, column >= 0, column < columnValues.count else { return [] }
    return columnValues[column]
  }
  var warnings: [String] = []

  func columnName(_ index: Int) -> String? {
    index < header.count && !header[index].isEmpty ? header[index] : nil
  }

  var dialect: DetectedDialect {
    let count = max(width, roles.count)
    let columns = (0..<count).map { i in
      DetectedColumn(
        index: i + 1, name: columnName(i), role: i < roles.count ? roles[i] : nil,
        samples: i < samples.count ? samples[i] : [])
    }
    return DetectedDialect(
      encoding: encoding, encodingReason: encodingReason,
      delimiter: String(UnicodeScalar(delimiter)), headerLine: headerLine, dataStartLine: dataStartLine,
      preambleLines: preambleLines,
      columns: columns, dateFormat: dateFormat.description,
      decimalMark: String(UnicodeScalar(decimalMark)), signConvention: sign, currency: currency,
      currencyReason: currencyReason, signReason: signReason, warnings: warnings)
  }

  mutating func assign(_ role: ColumnRole, _ index: Int) {
    while roles.count <= index { roles.append(nil) }
    roles[index] = role
  }

  /// Fills the per-role indexes from `roles`.
  mutating func resolveIndexes() {
    descriptions = []
    amount = nil
    debit = nil
    credit = nil
    direction = nil
    currencyColumn = nil
    status = nil
    fee = nil
    category = nil
    accountColumn = nil
    var dateIndex: Int?
    for (i, role) in roles.enumerated() {
      switch role {
      case .date?: if dateIndex == nil { dateIndex = i }
      case .description?: descriptions.append(i)
      case .amount?: if amount == nil { amount = i }
      case .debit?: if debit == nil { debit = i }
      case .credit?: if credit == nil { credit = i }
      case .direction?: if direction == nil { direction = i }
      case .currency?: if currencyColumn == nil { currencyColumn = i }
      case .status?: if status == nil { status = i }
      case .fee?: if fee == nil { fee = i }
      case .category?: if category == nil { category = i }
      case .account?: if accountColumn == nil { accountColumn = i }
      case .ignore?, nil: break
      }
    }
    date = dateIndex ?? -1
  }
}
