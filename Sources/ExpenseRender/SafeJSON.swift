import Foundation

/// The one JSON writer of every command: pretty, sorted keys, and no character that could act
/// on a terminal or reorder a line left raw.
///
/// Why: JSONEncoder escapes C0 controls but writes C1 controls (U+0080–U+009F, which some
/// terminals take as CSI), DEL, the line/paragraph separators and the bidirectional overrides
/// (U+202E makes `gpj.exe` look like `exe.jpg`) as they are. Here they become `\uXXXX` escapes:
/// the data a script parses is exactly what was stored, and `cat report.json` is harmless.
public enum SafeJSON {
  /// `value` encoded as pretty-printed JSON with sorted keys, invisible controls escaped.
  public static func text<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return escapeInvisible(String(decoding: try encoder.encode(value), as: UTF8.self))
  }

  /// A listing's rows as one JSON array: `[]` when there are none (the encoder's pretty form of
  /// an empty array spreads it over lines), else `text(rows)`.
  public static func list<T: Encodable>(_ rows: [T]) throws -> String {
    rows.isEmpty ? "[]" : try text(rows)
  }

  /// Scalars written as `\uXXXX` inside JSON strings (they never occur outside them).
  static func needsEscape(_ v: UInt32) -> Bool {
    v == 0x7F || (0x80..<0xA0).contains(v) || v == 0x2028 || v == 0x2029 || (0x202A...0x202E).contains(v)
      || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C
  }

  static func escapeInvisible(_ json: String) -> String {
    guard json.unicodeScalars.contains(where: { needsEscape($0.value) }) else { return json }
    var out = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      if needsEscape(scalar.value) {
        let hex = String(scalar.value, radix: 16)
        out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }
}
