/// A fixed set of lower-case words that a trimmed cell, lower-cased, is looked up in (the
/// words banks write for a pending date, or on a balance line), with what settles most cells
/// from their bytes, without lower-casing them: the detection asks it of every cell of its
/// 1 MiB sample.
///
/// Exactly `words.contains(cell.trimmingASCIIWhitespace().lowercased())`. An ASCII cell
/// lower-cases to ASCII of its own length and first letter, so it can equal only an ASCII
/// word of that length and first byte (no word here is canonically equal to ASCII while not
/// ASCII itself, which a test checks); a cell of more than four bytes for each byte of the
/// longest word is none (a scalar's lower case is never shorter than one byte, nor a scalar
/// longer than four).
struct LowercaseWords: Sendable {
  let words: Set<String>
  /// The UTF-8 length of the longest word.
  let longest: Int
  /// Bit n: some ASCII word is n bytes long (n < 64).
  private let asciiLengths: UInt64
  /// Bit b: some ASCII word starts with the byte b (b < 128), in two words.
  private let asciiFirst: (UInt64, UInt64)
  /// The ASCII words' bytes, by their length.
  private let asciiByLength: [[[UInt8]]]

  init(_ words: Set<String>) {
    self.words = words
    longest = words.map(\.utf8.count).max() ?? 0
    var lengths: UInt64 = 0
    var first: (UInt64, UInt64) = (0, 0)
    for word in words where word.utf8.allSatisfy({ $0 < 0x80 }) {
      let count = word.utf8.count
      // A word too long for the mask can't be told apart: every length then may match.
      lengths |= count < 64 ? 1 << count : ~0
      guard let byte = word.utf8.first else { continue }
      if byte < 64 { first.0 |= 1 << byte } else { first.1 |= 1 << (byte - 64) }
    }
    asciiLengths = lengths
    asciiFirst = first
    var byLength = [[[UInt8]]](repeating: [], count: longest + 1)
    for word in words where word.utf8.allSatisfy({ $0 < 0x80 }) { byLength[word.utf8.count].append(Array(word.utf8)) }
    asciiByLength = byLength
  }

  /// Whether an ASCII cell, already trimmed of ASCII blanks, lower-cases to one of the words:
  /// exactly `contains(cell:)` for such a cell, with no String made (only an ASCII word can be
  /// equal to an ASCII text, which a test checks), its bytes compared lower-cased.
  func contains(trimmedASCII bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count < asciiByLength.count else { return false }
    candidates: for word in asciiByLength[bytes.count] {
      for i in 0..<bytes.count {
        let b = bytes[i]
        if (b &- 0x41 < 26 ? b | 0x20 : b) != word[i] { continue candidates }
      }
      return true
    }
    return false
  }

  /// Whether `cell`, trimmed of ASCII blanks and lower-cased, is one of the words.
  func contains(cell: String) -> Bool {
    let trimmed = trimmingASCIIBlanks(cell)
    guard trimmed.utf8.count <= 4 * longest else { return false }
    let settled = trimmed.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
      let count = bytes.count
      if count < 64 && asciiLengths & (1 << count) == 0 { return false }
      guard let byte = bytes.first else { return nil }
      let lower = byte &- 0x41 < 26 ? byte | 0x20 : byte
      let known = lower < 64 ? asciiFirst.0 & (1 << lower) != 0 : asciiFirst.1 & (1 << (lower - 64)) != 0
      return known ? nil : false
    }
    if let settled, let answer = settled { return answer }
    return words.contains(lowercasedFast(trimmed))
  }
}
