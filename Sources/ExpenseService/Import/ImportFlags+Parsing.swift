import ExpenseCore
import ExpenseImport

/// The import flags as a front end received them, as text: `expenses import`'s options or
/// `POST /v1/imports`'s query. `ImportFlags.parse` checks them, once, with one set of messages.
public struct RawImportFlags: Sendable, Equatable {
  public var columns: String?
  public var namedColumns: [String] = []
  public var delimiter: String?
  public var encoding: String?
  public var dateFormat: String?
  public var decimalMark: String?
  public var spending: String?
  public var currency: String?
  public var account: String?
  public var skipLines: Int?
  public var skipWhen: [String] = []
  public var replaceInvalid = false
  public var profile: String?

  public init() {}
}

/// A flag that does not say anything the import understands. `message(calling:)` phrases it
/// with the flag's name as the front end spells it (`--decimal-mark`, `'decimalMark'`).
public struct ImportFlagProblem: Error, Equatable, Sendable {
  /// Which flag, by the API's name (the CLI's is its kebab-case form).
  public enum Flag: String, Sendable {
    case columns, column, encoding, decimalMark, spending, currency, skipLines, skipWhen

    /// The command-line spelling: `--decimal-mark` for `decimalMark`.
    public var option: String {
      "--" + rawValue.reduce(into: "") { name, c in name += c.isUppercase ? "-" + c.lowercased() : String(c) }
    }
  }

  public var flag: Flag
  /// What was given.
  public var value: String
  /// The value is well formed but names something this version does not know (an encoding,
  /// a currency): HTTP answers 422 rather than 400.
  public var isUnknownName: Bool

  /// The message, with `name` standing for the flag.
  public func message(calling name: String) -> String {
    let roles = ColumnRole.allCases.map(\.rawValue).joined(separator: ", ")
    switch flag {
    case .columns: return "\(name): unknown role '\(value)'; roles are \(roles)"
    case .column: return "\(name) takes NAME=ROLE with ROLE one of \(roles); got '\(value)'"
    case .encoding:
      return "unknown \(name) '\(value)': use one of \(TextEncoding.allCases.map(\.rawValue).joined(separator: ", "))"
    case .decimalMark: return "\(name) must be '.' or ','"
    case .spending: return "\(name) must be 'negative' or 'positive', not '\(value)'"
    case .currency: return CoreError.unknownCurrency(value).description
    case .skipLines: return "\(name) must be 0 or more"
    case .skipWhen: return "\(name) takes COLUMN=VALUE; got '\(value)'"
    }
  }
}

extension ImportFlags {
  /// Checks `raw` and returns the flags it means: the one validation `expenses import` and the
  /// HTTP API share.
  public static func parse(_ raw: RawImportFlags) throws(ImportFlagProblem) -> ImportFlags {
    var flags = ImportFlags()
    if let value = raw.columns {
      var roles: [ColumnRole] = []
      for role in value.split(separator: ",", omittingEmptySubsequences: false) {
        guard let known = ColumnRole(rawValue: String(role)) else {
          throw ImportFlagProblem(flag: .columns, value: String(role), isUnknownName: false)
        }
        roles.append(known)
      }
      flags.columns = roles
    }
    for pair in raw.namedColumns {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let role = ColumnRole(rawValue: parts[1]) else {
        throw ImportFlagProblem(flag: .column, value: pair, isUnknownName: false)
      }
      flags.namedColumns[parts[0]] = role
    }
    flags.delimiter = raw.delimiter
    if let value = raw.encoding {
      guard let encoding = TextEncoding(name: value) else {
        throw ImportFlagProblem(flag: .encoding, value: value, isUnknownName: true)
      }
      flags.encoding = encoding
    }
    flags.dateFormat = raw.dateFormat
    if let value = raw.decimalMark {
      guard value == "." || value == "," else {
        throw ImportFlagProblem(flag: .decimalMark, value: value, isUnknownName: false)
      }
      flags.decimalMark = value
    }
    if let value = raw.spending {
      guard let sign = SpendingSign(rawValue: value) else {
        throw ImportFlagProblem(flag: .spending, value: value, isUnknownName: false)
      }
      flags.spending = sign
    }
    if let value = raw.currency {
      guard let currency = Currency(code: value.uppercased()) else {
        throw ImportFlagProblem(flag: .currency, value: value, isUnknownName: true)
      }
      flags.currency = currency.code
    }
    flags.account = raw.account
    if let value = raw.skipLines {
      guard value >= 0 else { throw ImportFlagProblem(flag: .skipLines, value: String(value), isUnknownName: false) }
      flags.skipLines = value
    }
    for rule in raw.skipWhen where !rule.contains("=") {
      throw ImportFlagProblem(flag: .skipWhen, value: rule, isUnknownName: false)
    }
    flags.skipWhen = raw.skipWhen
    if raw.replaceInvalid { flags.replaceInvalid = true }
    flags.profile = raw.profile
    return flags
  }
}
