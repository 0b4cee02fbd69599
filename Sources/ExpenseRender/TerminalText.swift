/// Makes untrusted text (bank CSV descriptions, categories, accounts) safe to print on a terminal.
public enum TerminalText {
  /// `s` with every control character made visible, so no byte of it can drive the terminal.
  ///
  /// Convention (as `cat -v` shows them): tab, line feed and carriage return become one space (a
  /// cell is one line); other C0 controls become caret notation (`ESC` → `^[`, `BEL` → `^G`,
  /// `NUL` → `^@`); `DEL` → `^?`; C1 controls (U+0080–U+009F) → `M-^` plus the caret letter
  /// (`CSI` U+009B → `M-^[`). The line and paragraph separators U+2028/U+2029 become a space, and
  /// bidirectional embedding/override/isolate controls (U+202A–U+202E, U+2066–U+2069), which can
  /// reorder what a line appears to say, become `<U+202E>`-style text. Everything else is kept.
  public static func sanitize(_ s: String) -> String {
    if DisplayWidth.isPlainASCII(s) { return s }
    var out = String.UnicodeScalarView()
    for scalar in s.unicodeScalars {
      let v = scalar.value
      switch v {
      case 0x09, 0x0A, 0x0D, 0x2028, 0x2029:
        out.append(" ")
      case 0x00..<0x20:
        out.append("^")
        out.append(Unicode.Scalar(UInt8(v + 0x40)))
      case 0x7F:
        out.append(contentsOf: "^?".unicodeScalars)
      case 0x80..<0xA0:
        out.append(contentsOf: "M-^".unicodeScalars)
        out.append(Unicode.Scalar(UInt8(v - 0x80 + 0x40)))
      case 0x202A...0x202E, 0x2066...0x2069:
        let hex = String(v, radix: 16, uppercase: true)
        out.append(contentsOf: "<U+\(hex)>".unicodeScalars)
      default:
        out.append(scalar)
      }
    }
    return String(out)
  }
}
