/// Text the list can measure and cut as bytes: every scalar is printable and a grapheme cluster
/// of its own, one or two cells wide (ASCII, accented Latin, Greek, Cyrillic, common
/// punctuation and currency signs, CJK ideographs, kana, Hangul syllables, fullwidth forms).
///
/// Why: a fifth of a typical bank file's descriptions are not ASCII (`Café Müller`, `SNCF —
/// TGV`), and measuring them through `String`, `Character` and `DisplayWidth` cost more than
/// the rest of the row. For such text `DisplayWidth.of` is the sum of the scalars' widths and
/// `DisplayWidth.truncate` cuts between scalars, which is what these functions compute; nothing
/// joins across scalars (no combining mark, joiner, variation selector, jamo, flag or emoji
/// modifier is allowed), so the whole-line count equals the sum too. Anything else returns nil
/// and goes the general way. A test checks every allowed scalar against `Character` and
/// `DisplayWidth`.
enum SimpleText {
  /// `DisplayWidth.of(text, limit:)` of simple text (the running total once it passes
  /// `limit`, the whole width otherwise; plain ASCII its length), or nil when the text is not
  /// simple.
  static func width(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int = .max) -> Int? {
    var total = 0
    var index = 0
    var ascii = true
    var passed: Int? = nil
    // Printable ASCII eight bytes at a time: one cell each.
    if let base = bytes.baseAddress {
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      while index + 8 <= bytes.count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if ((word &- ones &* 0x20) & ~word & highs) | (((word &+ ones) | word) & highs) != 0 { break }
        index += 8
      }
      total = index
      // One cell per byte: the running total passed `limit` at `limit + 1`.
      if total > limit { passed = limit + 1 }
    }
    while index < bytes.count {
      let byte = bytes[index]
      let cells: Int
      if byte < 0x80 {
        guard byte >= 0x20 && byte < 0x7F else { return nil }
        cells = 1
        index += 1
      } else {
        ascii = false
        let (scalar, length) = decode(bytes, at: index)
        guard let scalarCells = cellsIfSimple(scalar) else { return nil }
        cells = scalarCells
        index += length
      }
      total += cells
      if passed == nil && total > limit { passed = total }
    }
    return ascii ? total : passed ?? total
  }

  /// Writes `bytes` (simple text `width` cells wide) as `Table` writes a left-aligned cell of
  /// `cells`: cut as `DisplayWidth.truncate` cuts it, then padded with spaces.
  static func appendCell(
    _ bytes: UnsafeBufferPointer<UInt8>, width: Int, cells: Int, ellipsis: String, ellipsisWidth: Int,
    into out: inout OutputBuffer
  ) {
    if width <= cells {
      out.append(bytes)
      out.appendSpaces(cells - width)
      return
    }
    let useEllipsis = ellipsisWidth <= cells
    let budget = useEllipsis ? cells - ellipsisWidth : max(0, cells)
    var used = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      let (scalarCells, length): (Int, Int)
      if byte < 0x80 {
        (scalarCells, length) = (1, 1)
      } else {
        let (scalar, scalarLength) = decode(bytes, at: index)
        (scalarCells, length) = (cellsIfSimple(scalar) ?? 1, scalarLength)
      }
      if used + scalarCells > budget { break }
      used += scalarCells
      index += length
    }
    out.append(UnsafeBufferPointer(rebasing: bytes[..<index]))
    if useEllipsis {
      out.append(ellipsis)
      used += ellipsisWidth
    }
    out.appendSpaces(cells - used)
  }

  /// The scalar starting at `index` of valid UTF-8 and its length in bytes.
  private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
    let lead = UInt32(bytes[index])
    func next(_ offset: Int) -> UInt32 { UInt32(bytes[index + offset] & 0x3F) }
    if lead < 0xE0 { return ((lead & 0x1F) << 6 | next(1), 2) }
    if lead < 0xF0 { return ((lead & 0x0F) << 12 | next(1) << 6 | next(2), 3) }
    return ((lead & 0x07) << 18 | next(1) << 12 | next(2) << 6 | next(3), 4)
  }

  /// The scalars allowed besides printable ASCII: blocks without combining marks, joiners,
  /// controls or format characters (the exceptions in them are left out).
  static let allowed: [ClosedRange<UInt32>] = [
    0x00A0...0x00AC, 0x00AE...0x02FF,  // Latin-1 (not the soft hyphen), Latin Extended, IPA, modifiers
    0x0370...0x0482, 0x048A...0x052F,  // Greek, Cyrillic (not its combining marks)
    0x2010...0x2027, 0x2030...0x205E,  // general punctuation (not spaces, joiners, marks, separators)
    0x20A0...0x20C0, 0x2100...0x214F,  // currency signs, letterlike symbols
    0x3041...0x3096, 0x30A1...0x30FA,  // hiragana, katakana (not the combining sound marks)
    0x4E00...0x9FFF, 0xAC00...0xD7A3,  // CJK unified ideographs, Hangul syllables
    0xFF01...0xFF60,  // fullwidth forms
  ]

  /// The scalar's cells when it is allowed and one or two cells wide, else nil.
  static func cellsIfSimple(_ scalar: UInt32) -> Int? {
    guard allowed.contains(where: { $0.contains(scalar) }) else { return nil }
    let cells = DisplayWidth.scalarWidth(scalar)
    return cells == 1 || cells == 2 ? cells : nil
  }
}
