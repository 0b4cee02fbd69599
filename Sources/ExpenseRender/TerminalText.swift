/// Makes untrusted text (bank CSV descriptions, categories, accounts) safe to print on a terminal.
public enum TerminalText {
  /// `s` with every control character made visible, so no byte of it can drive the terminal.
  ///
  /// Convention (as `cat -v` shows them): tab, line feed and carriage return become one space (a
  /// cell is one line); other C0 controls become caret notation (`ESC` → `^[`, `BEL` → `^G`,
  /// `NUL` → `^@`); `DEL` → `^?`; C1 controls (U+0080–U+009F) → `M-^` plus the caret letter
  /// (`CSI` U+009B → `M-^[`). The line and paragraph separators U+2028/U+2029 become a space, and
  /// every bidirectional formatting character (Unicode's Bidi_Control class: the marks U+061C ALM,
  /// U+200E LRM and U+200F RLM, the embeddings and overrides U+202A–U+202E, the isolates
  /// U+2066–U+2069), which can reorder what a line appears to say or which column a cell seems to
  /// be in, becomes `<U+200F>`-style text. Everything else is kept.
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
      case _ where TerminalText.isBidiControl(v):
        let hex = String(v, radix: 16, uppercase: true)
        out.append(contentsOf: "<U+\(hex)>".unicodeScalars)
      default:
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// Whether `v` has the Unicode property Bidi_Control (PropList.txt: U+061C, U+200E, U+200F,
  /// U+202A–U+202E, U+2066–U+2069): invisible characters that change the display order of text.
  @inlinable
  public static func isBidiControl(_ v: UInt32) -> Bool {
    v == 0x061C || v == 0x200E || v == 0x200F || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
  }
}
