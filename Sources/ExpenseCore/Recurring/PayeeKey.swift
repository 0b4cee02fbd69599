/// The part of a bank's description that names who was paid: the same for every payment of a
/// series, whatever reference, date or card number the bank puts beside it.
///
/// Folded for case and accents (as search folds), every word holding a digit dropped ("#10234",
/// "11/03", "MREF 2026-0931-77"), punctuation made a space, single letters dropped. "POS 4417
/// STARBUCKS #10234 SEATTLE WA 11/03" is `pos starbucks seattle wa`.
public enum PayeeKey {
  public static func of(_ description: String) -> String {
    if description.utf8.allSatisfy({ $0 < 0x80 }) { return ascii(description.utf8) }
    return folded(description)
  }

  /// `of` through Foundation's folding: any script.
  static func folded(_ description: String) -> String {
    let folded = ExpenseFilter.fold(description)
    var words: [Substring] = []
    for word in folded.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
      guard !word.contains(where: \.isNumber) else { continue }
      let letters = word.split(whereSeparator: { !$0.isLetter })
      for part in letters where part.count > 1 { words.append(part) }
    }
    return words.joined(separator: " ")
  }

  /// `of` for ASCII text, byte by byte (most bank descriptions): the same words, without
  /// Foundation's folding, which costs more than the rest of the detector.
  static func ascii(_ bytes: String.UTF8View) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var word: [UInt8] = []
    var hasDigit = false
    func endWord() {
      defer {
        word.removeAll(keepingCapacity: true)
        hasDigit = false
      }
      guard !hasDigit else { return }
      var part: [UInt8] = []
      for byte in word + [0x20] {
        if byte >= 0x61 && byte <= 0x7A {
          part.append(byte)
        } else {
          if part.count > 1 {
            if !out.isEmpty { out.append(0x20) }
            out += part
          }
          part.removeAll(keepingCapacity: true)
        }
      }
    }
    for byte in bytes {
      if byte == 0x20 || byte == 0x09 {
        endWord()
      } else {
        if byte >= 0x30 && byte <= 0x39 { hasDigit = true }
        word.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
      }
    }
    endWord()
    return String(decoding: out, as: UTF8.self)
  }

  /// The description as the bank wrote it, less the words holding a digit (a reference, a
  /// date, a card or store number): `RENT OAK STREET APTS REF`, `NETFLIX.COM`. The
  /// description itself when nothing would be left.
  public static func display(_ description: String) -> String {
    let kept = description.split(separator: " ").filter { !$0.contains(where: \.isNumber) }
    return kept.isEmpty ? description : kept.joined(separator: " ")
  }
}
