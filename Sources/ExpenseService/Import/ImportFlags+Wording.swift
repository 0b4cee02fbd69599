import ExpenseCore
import ExpenseImport

/// The front end an import's message is for. The importer's hints name its flags as the command
/// line spells them (`--spending positive`); the HTTP API takes the same settings as query
/// parameters (`spending=positive`), so a problem it answers must name those instead, or the
/// advice cannot be followed.
public enum ImportFrontEnd: Sendable {
  case commandLine
  case api

  /// One import setting: its command-line option, its query parameter (`openapi.yaml`), and
  /// which values a hint may give it (a flag without one is a switch, `skipInvalid=true`).
  struct Setting: Sendable {
    var option: String
    var parameter: String
    var value: (@Sendable (Substring) -> Bool)?
  }

  /// Every import option a hint may name. Longer names first: `--column` is a prefix of
  /// `--columns`.
  static let settings: [Setting] = [
    Setting(option: "--columns", parameter: "columns") { value in
      value.split(separator: ",", omittingEmptySubsequences: false).allSatisfy {
        ColumnRole(rawValue: String($0)) != nil
      }
    },
    Setting(option: "--column", parameter: "column") { $0.contains("=") },
    Setting(option: "--delimiter", parameter: "delimiter", value: nil),
    Setting(option: "--encoding", parameter: "encoding") { TextEncoding(name: String($0)) != nil },
    Setting(option: "--date-format", parameter: "dateFormat") { value in
      value.contains { "DMY".contains($0) } && value.allSatisfy { "DMY/.- ".contains($0) }
    },
    Setting(option: "--decimal-mark", parameter: "decimalMark") { $0 == "." || $0 == "," },
    Setting(option: "--spending", parameter: "spending") { $0 == "positive" || $0 == "negative" },
    Setting(option: "--currency", parameter: "currency") { $0.count == 3 && $0.allSatisfy(\.isUppercase) },
    Setting(option: "--account", parameter: "account", value: nil),
    Setting(option: "--skip-lines", parameter: "skipLines") { !$0.isEmpty && $0.allSatisfy(\.isNumber) },
    Setting(option: "--skip-when", parameter: "skipWhen") { $0.contains("=") },
    Setting(option: "--skip-invalid", parameter: "skipInvalid", value: nil),
    Setting(option: "--replace-invalid", parameter: "replaceInvalid", value: nil),
    Setting(option: "--profile", parameter: "profile", value: nil),
  ]

  /// Switches: named alone they are turned on, `skipInvalid=true`.
  static let switches: Set<String> = ["--skip-invalid", "--replace-invalid"]

  /// `message` as this front end words it. For the API every import option becomes its query
  /// parameter: `--spending positive` → `spending=positive`, `--skip-invalid` →
  /// `skipInvalid=true`, an option named without a value (`use --encoding to override`) →
  /// `the encoding parameter`. Other text, and options that are not the import's, are kept.
  public func word(_ message: String) -> String {
    guard self == .api, message.contains("--") else { return message }
    var out = ""
    var rest = Substring(message)
    while let range = rest.range(of: "--") {
      out += rest[..<range.lowerBound]
      let after = rest[range.lowerBound...]
      guard let setting = ImportFrontEnd.setting(at: after) else {
        out += "--"
        rest = rest[range.upperBound...]
        continue
      }
      var tail = after.dropFirst(setting.option.count)
      if ImportFrontEnd.switches.contains(setting.option) {
        out += "\(setting.parameter)=true"
      } else if let accepts = setting.value, tail.first == " ",
        case let value = tail.dropFirst().prefix(while: { $0 != " " && $0 != ")" && $0 != ";" }),
        !value.isEmpty, accepts(ImportFrontEnd.trimmed(value))
      {
        let word = ImportFrontEnd.trimmed(value)
        out += "\(setting.parameter)=\(word)"
        tail = tail.dropFirst(1 + word.count)
      } else {
        out += "the \(setting.parameter) parameter"
      }
      rest = tail
    }
    return out + rest
  }

  /// The import setting whose option `text` starts with, as a whole word.
  static func setting(at text: Substring) -> Setting? {
    for setting in settings where text.hasPrefix(setting.option) {
      let next = text.dropFirst(setting.option.count).first
      if let next, next.isLetter || next == "-" { continue }
      return setting
    }
    return nil
  }

  /// A value as a sentence holds it, without the punctuation that ends the sentence's clause
  /// (`--decimal-mark ,` keeps its comma: a mark is one character).
  static func trimmed(_ value: Substring) -> Substring {
    guard value.count > 1 else { return value }
    var value = value
    while let last = value.last, last == "," || last == ":", value.count > 1 { value = value.dropLast() }
    return value
  }
}

extension ImportFlagProblem {
  /// The message as `front` spells the flag: `--decimal-mark` on the command line,
  /// `'decimalMark'` in the API.
  public func message(for front: ImportFrontEnd) -> String {
    switch front {
    case .commandLine: return message(calling: flag.option)
    case .api: return message(calling: "'\(flag.rawValue)'")
    }
  }
}
