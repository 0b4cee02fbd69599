/// Text from a request (path, token name, an error's message) made safe for one log line.
///
/// Why: the log goes to a terminal or a file that other tools split by line. A value holding LF
/// or CR would forge log lines, ESC would reach the terminal as an escape sequence, and bidi
/// controls would reorder what a line appears to say. Every such scalar (controls, format
/// characters such as U+200F and U+061C, line and paragraph separators) is written as
/// `<U+XXXX>`; everything else is kept.
enum LogText {
  static func clean(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if needsEscape(scalar) {
        out.append(contentsOf: "<U+\(hex(scalar.value))>".unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
    default: return false
    }
  }

  static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
