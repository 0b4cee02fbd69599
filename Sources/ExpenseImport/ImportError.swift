import ExpenseCore
import Foundation

/// One bad row: where it is, what it holds, what is wrong and what to do about it.
public struct ImportIssue: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kind of problem.
  public enum Kind: String, Sendable, Equatable {
    /// A quoted field is still open at the end of the file.
    case unterminatedQuote = "unterminated quote"
    /// A data row has a different number of fields than the header.
    case wrongColumnCount = "wrong column count"
    /// The date does not parse with the file's date format.
    case badDate = "bad date"
    /// The amount (or debit/credit/fee/direction) does not parse.
    case badAmount = "bad amount"
    /// Bytes that are not valid in the chosen encoding.
    case invalidText = "invalid text"
    /// The currency code is not ISO 4217.
    case unknownCurrency = "unknown currency"
    /// A required column (date, amount) is missing or empty.
    case missingRequiredColumn = "missing required column"
    /// A field is longer than `ImportLimits.maxFieldBytes`.
    case fieldTooLong = "field too long"
    /// A record is longer than `ImportLimits.maxRecordBytes` (often a quote never closed).
    case recordTooLong = "record too long"
  }

  public var kind: Kind
  /// File name as given to the importer.
  public var file: String
  /// 1-based physical line the record starts on.
  public var line: Int
  /// 1-based field index, when the problem is in one field.
  public var column: Int?
  /// Header name of that field, when the file has a header.
  public var columnName: String?
  /// The offending value with control characters made visible.
  public var rawValue: String
  public var message: String
  public var hint: String
  /// The whole record as the file held it (fields re-joined with the file's delimiter, quoted
  /// where needed), set when rows are skipped so a rejects file can hold the original text.
  public var record: String?

  public init(
    kind: Kind, file: String, line: Int, column: Int?, columnName: String?, rawValue: String,
    message: String, hint: String
  ) {
    self.kind = kind
    self.file = file
    self.line = line
    self.column = column
    self.columnName = columnName
    self.rawValue = visibleControlCharacters(rawValue)
    self.message = message
    self.hint = hint
  }

  /// `file:line:column: message` then the value and the hint on indented lines.
  public var description: String {
    var location = "\(file):\(line)"
    if let column { location += ":\(column)" }
    var text = location + ": " + message
    if let columnName { text += " (column \"\(visibleControlCharacters(columnName))\")" }
    text += "\n  value: \"\(rawValue)\""
    if !hint.isEmpty { text += "\n  hint: \(hint)" }
    return text
  }
}

/// Every error the import module throws.
public enum ImportError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
  /// The file does not exist.
  case noInput(path: String)
  /// The file exists but cannot be read.
  case io(path: String, message: String)
  /// An option value makes no sense (`--delimiter ab`, `--date-format XX`).
  case invalidOption(option: String, message: String)
  /// The file's layout cannot be worked out; `hint` names the flag that settles it.
  case undetectable(file: String, message: String, hint: String)
  /// A bad row, when the import is not skipping invalid rows.
  case row(ImportIssue)
  /// The file's structure is damaged at `line` (an aggregate opened inside another of its kind,
  /// a record without its end, a field out of order) or holds markup that is refused for safety
  /// (a DTD, an undefined entity, an encoding that could hide markup). Unlike a bad row it stops
  /// the import with or without `--skip-invalid`: what follows the damage cannot be trusted.
  case malformed(file: String, line: Int, message: String, hint: String)

  public var description: String {
    switch self {
    case .noInput(let path): return "\(path): no such file"
    case .io(let path, let message): return "\(path): cannot read: \(message)"
    case .invalidOption(let option, let message): return "invalid \(option): \(message)"
    case .undetectable(let file, let message, let hint): return "\(file): \(message)\n  hint: \(hint)"
    case .row(let issue): return issue.description
    case .malformed(let file, let line, let message, let hint): return "\(file):\(line): \(message)\n  hint: \(hint)"
    }
  }

  public var errorDescription: String? { description }

  /// The row issue, when this error is about one row.
  public var issue: ImportIssue? {
    if case .row(let issue) = self { return issue }
    return nil
  }
}

/// Makes control characters visible for messages: ESC becomes `\u{1B}`, TAB `\t`, CR `\r`, LF `\n`,
/// and every bidirectional control (Bidi_Control: U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069) `\u{200F}`-style, so no message can reorder what it appears to say.
///
/// Stored descriptions keep their characters as they are; this is only for error output.
public func visibleControlCharacters(_ s: String) -> String {
  var needs = false
  for scalar in s.unicodeScalars where isControl(scalar) {
    needs = true
    break
  }
  if !needs { return s }
  var out = String.UnicodeScalarView()
  for scalar in s.unicodeScalars {
    if isControl(scalar) {
      let text: String
      switch scalar.value {
      case 0x09: text = "\\t"
      case 0x0A: text = "\\n"
      case 0x0D: text = "\\r"
      default: text = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
      out.append(contentsOf: text.unicodeScalars)
    } else {
      out.append(scalar)
    }
  }
  return String(out)
}

private func isControl(_ scalar: Unicode.Scalar) -> Bool {
  let v = scalar.value
  return v < 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) || v == 0x2028 || v == 0x2029
    || v == 0x061C || v == 0x200E || v == 0x200F  // Bidi_Control: the marks ALM, LRM, RLM,
    || (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)  // embeddings, overrides, isolates
}

extension ImportError: ClassifiedError {
  /// A missing file is "no input", an unreadable one an I/O error, an option value that cannot
  /// apply an invalid value, and anything wrong inside the file bad data.
  public var kind: ErrorKind {
    switch self {
    case .noInput: return .noInput
    case .io: return .io
    case .invalidOption: return .invalidValue
    case .undetectable, .row, .malformed: return .badData
    }
  }
}
