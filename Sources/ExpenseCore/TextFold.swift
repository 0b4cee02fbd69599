import Foundation

/// Case, accents and width folded away, as search and payees compare text: Foundation's
/// `folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive])`, which is
/// the definition, made cheap for what banks write.
///
/// Why not Foundation on every text: one call costs microseconds, and a search of a bank's
/// million rows folds every distinct description (about 300,000, a fifth of them not ASCII):
/// that was most of a search's time. Folding is one scalar at a time for the scalars of
/// `ScalarFolds` (precomposed Latin, Greek, Cyrillic, Hebrew, Arabic and Thai letters, kana,
/// punctuation; none a combining mark), so a text made only of those is folded from a table
/// of Foundation's own answers, one per scalar, and CJK ideographs fold to themselves. Any
/// other text (a combining mark, an emoji, half-width forms, Hangul, bytes that are not
/// UTF-8) goes to Foundation whole. `TextFoldTests` holds the two to the same answers.
public enum TextFold {
  /// Foundation's folding of `text`: the definition, and the path for any text the table
  /// does not cover.
  public static func foundation(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
  }

  /// `text` folded.
  public static func fold(_ text: String) -> String {
    var copy = text
    return copy.withUTF8 { bytes in
      var out: [UInt8] = []
      out.reserveCapacity(bytes.count)
      append(bytes, to: &out)
      return String(decoding: out, as: UTF8.self)
    }
  }

  /// Appends the folded UTF-8 of `bytes` (UTF-8) to `out`.
  public static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    let start = out.count
    if !appendFromTable(bytes, to: &out) {
      out.removeSubrange(start..<out.count)
      out.append(contentsOf: foundation(String(decoding: bytes, as: UTF8.self)).utf8)
    }
  }

  /// Folds `bytes` scalar by scalar; false (with `out` partly written) at the first scalar the
  /// table does not cover or a byte that is not UTF-8 of one.
  static func appendFromTable(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
    var index = 0
    let count = bytes.count
    while index < count {
      let lead = bytes[index]
      if lead < 0x80 {
        out.append(lead >= 0x41 && lead <= 0x5A ? lead | 0x20 : lead)
        index += 1
        continue
      }
      let length: Int
      var value: UInt32
      if lead & 0xE0 == 0xC0 {
        length = 2
        value = UInt32(lead & 0x1F)
      } else if lead & 0xF0 == 0xE0 {
        length = 3
        value = UInt32(lead & 0x0F)
      } else {
        return false
      }
      guard index + length <= count else { return false }
      for offset in 1..<length {
        let next = bytes[index + offset]
        guard next & 0xC0 == 0x80 else { return false }
        value = value << 6 | UInt32(next & 0x3F)
      }
      // An overlong form is not UTF-8 (Foundation repairs it; so must the fallback).
      guard value >= (length == 2 ? 0x80 : 0x800) else { return false }
      if ScalarFolds.ideographs.contains(value) {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
      } else if !ScalarFolds.shared.append(value, to: &out) {
        return false
      }
      index += length
    }
    return true
  }
}

/// Foundation's folding of each scalar of the blocks where folding a text is folding each of
/// its scalars: computed once, on the first text that needs it (about 1,900 calls).
struct ScalarFolds: Sendable {
  static let shared = ScalarFolds()
  /// CJK Unified Ideographs: no case, no accents, no width; each folds to itself.
  static let ideographs: ClosedRange<UInt32> = 0x4E00...0x9FFF
  /// The blocks kept: Latin-1 Supplement to Latin Extended-B, Greek, Cyrillic, Hebrew and
  /// Arabic, Thai, Latin Extended Additional (Vietnamese), punctuation, currency and
  /// letter-like symbols, CJK symbols and kana. Combining marks and format characters in them
  /// are left out: a text holding one goes to Foundation whole.
  static let blocks: [ClosedRange<UInt32>] = [
    0xA0...0x24F, 0x370...0x3FF, 0x400...0x52F, 0x590...0x6FF, 0xE00...0xE7F, 0x1E00...0x1EFF, 0x2000...0x206F,
    0x20A0...0x20CF, 0x2100...0x214F, 0x3000...0x30FF,
  ]
  static let limit: UInt32 = 0x3100
  static let none = UInt32.max

  /// Per scalar below `limit`: offset into `folded` << 8 | length, or `none`.
  private let spans: [UInt32]
  private let folded: [UInt8]

  init() {
    var spans = [UInt32](repeating: ScalarFolds.none, count: Int(ScalarFolds.limit))
    var folded: [UInt8] = []
    for block in ScalarFolds.blocks {
      for value in block {
        guard let scalar = Unicode.Scalar(value), ScalarFolds.foldsAlone(scalar) else { continue }
        let bytes = Array(TextFold.foundation(String(Character(scalar))).utf8)
        guard bytes.count < 256 else { continue }
        spans[Int(value)] = UInt32(folded.count) << 8 | UInt32(bytes.count)
        folded += bytes
      }
    }
    self.spans = spans
    self.folded = folded
  }

  /// Whether `scalar` folds the same alone as beside any other: an assigned character that is
  /// not a mark (which folding drops or joins to the letter before it) nor a control or format
  /// character.
  static func foldsAlone(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    guard properties.canonicalCombiningClass.rawValue == 0 else { return false }
    switch properties.generalCategory {
    case .unassigned, .nonspacingMark, .spacingMark, .enclosingMark, .control, .format, .surrogate, .privateUse:
      return false
    default:
      return true
    }
  }

  /// Appends the folding of `value`; false when the table does not have it.
  func append(_ value: UInt32, to out: inout [UInt8]) -> Bool {
    guard value < ScalarFolds.limit else { return false }
    let span = spans[Int(value)]
    guard span != ScalarFolds.none else { return false }
    let offset = Int(span >> 8)
    out.append(contentsOf: folded[offset..<(offset + Int(span & 0xFF))])
    return true
  }
}
