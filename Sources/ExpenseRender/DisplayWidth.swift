/// Measures and truncates text in terminal cells, the unit the hard width rule is stated in.
///
/// Widths follow the Python `wcwidth` package (the tables in `WidthTables` are generated from it),
/// which is what `Tests/Tools/max-line-width.py` uses: East Asian Wide/Fullwidth characters and
/// emoji take 2 cells, combining marks, ZWJ and variation selectors 0, VS16 widens the emoji it
/// follows, skin-tone modifiers and the second regional indicator of a flag add nothing.
/// Measurement is per grapheme cluster (`Character`) and summed, so a truncated prefix never
/// measures wider than it prints; where the two differ this count is the larger, never the smaller.
/// ANSI escape sequences (`ESC [ … letter`, which only the renderer itself emits) count 0.
/// Control characters count 0 here; `TerminalText.sanitize` removes them before text is measured.
public enum DisplayWidth {
  /// The width of `s` in terminal cells.
  public static func of(_ s: String) -> Int {
    if isPlainASCII(s) { return s.utf8.count }
    var total = 0
    var escape = EscapeScanner()
    var visible: [Unicode.Scalar] = []
    for character in s {
      if escape.consume(character) { continue }
      total += cells(character)
      visible.append(contentsOf: character.unicodeScalars)
    }
    // wcswidth reads the whole line, and a ZWJ or modifier at a cluster's edge can count
    // differently there than cluster by cluster: the larger count is the safe one.
    return max(total, cells(scalars: visible))
  }

  /// The width of `s`, or some width above `limit` once it is known to be above: a long text
  /// (a multi-megabyte description) is read only as far as a layout can use.
  public static func of(_ s: String, limit: Int) -> Int {
    if limit == .max || isPlainASCII(s) { return of(s) }
    var total = 0
    var escape = EscapeScanner()
    for character in s {
      if escape.consume(character) { continue }
      total += cells(character)
      if total > limit { return total }
    }
    return of(s)
  }

  /// `s` cut to at most `cells` terminal cells, ending with `ellipsis` when anything was cut.
  ///
  /// Whole grapheme clusters only (never half an emoji or a base without its accent). When even
  /// the ellipsis does not fit, as much of the text as fits is returned without it. Escape
  /// sequences are kept (they take no cells), and a reset is appended if any were cut short.
  public static func truncate(_ s: String, to cells: Int, ellipsis: String) -> String {
    let limit = max(0, cells)
    if of(s, limit: limit) <= limit { return s }
    let ellipsisWidth = of(ellipsis)
    let useEllipsis = ellipsisWidth <= limit
    let budget = useEllipsis ? limit - ellipsisWidth : limit
    var result = ""
    var used = 0
    var escape = EscapeScanner()
    var sawEscape = false
    for character in s {
      if escape.consume(character) {
        sawEscape = true
        result.append(character)
        continue
      }
      let w = self.cells(character)
      if used + w > budget { break }
      used += w
      result.append(character)
    }
    // The whole-line count can exceed the cluster sum; drop clusters until it fits too.
    while !result.isEmpty && of(result) > budget { result.removeLast() }
    if useEllipsis { result += ellipsis }
    if sawEscape { result += "\u{1B}[0m" }
    return result
  }

  static func isPlainASCII(_ s: String) -> Bool {
    for byte in s.utf8 where byte < 0x20 || byte >= 0x7F { return false }
    return true
  }

  /// Cells of one grapheme cluster: a port of `wcwidth.wcswidth` over its scalars.
  static func cells(_ character: Character) -> Int {
    cells(scalars: Array(character.unicodeScalars))
  }

  /// wcswidth over a run of scalars (one cluster, or a whole line).
  static func cells(scalars: [Unicode.Scalar]) -> Int {
    if scalars.isEmpty { return 0 }
    if scalars.count == 1 { return max(0, scalarWidth(scalars[0].value)) }
    var total = 0
    var lastMeasured: UInt32? = nil
    var lastMeasuredValue: UInt32 = 0
    var lastWasVirama = false
    var conjunctPending = false
    var index = 0
    // Regional indicators in a row ending just before `runEnd` (computed forward, once per
    // scalar: counting back from each indicator made a long run of flags quadratic).
    var runEnd = 0
    var run = 0
    while index < scalars.count {
      let value = scalars[index].value
      if value == 0x200D {  // ZWJ joins the next scalar into the cluster without width
        index += lastWasVirama ? 1 : 2
        lastWasVirama = false
        continue
      }
      if value == 0xFE0F, let last = lastMeasured {
        if WidthTables.contains(WidthTables.vs16Wide, last) { total += 1 }
        lastMeasured = nil
        index += 1
        continue
      }
      if value > 0xFFFF {
        if isRegionalIndicator(value) {
          while runEnd < index {
            run = isRegionalIndicator(scalars[runEnd].value) ? run + 1 : 0
            runEnd += 1
          }
          if run % 2 == 1 {
            lastMeasuredValue = value
            index += 1
            continue
          }
        } else if (0x1F3FB...0x1F3FF).contains(value),
          isRegionalIndicator(lastMeasuredValue)
            || WidthTables.contains(WidthTables.extendedPictographic, lastMeasuredValue)
        {
          index += 1
          continue
        }
      }
      if lastWasVirama, WidthTables.contains(WidthTables.indicConsonant, value) {
        lastMeasured = value
        lastMeasuredValue = value
        lastWasVirama = false
        conjunctPending = true
        index += 1
        continue
      }
      let w = scalarWidth(value)
      if w > 0 {
        if conjunctPending {
          total += 1
          conjunctPending = false
        }
        total += w
        lastMeasured = value
        lastMeasuredValue = value
        lastWasVirama = false
      } else if lastMeasured != nil, WidthTables.contains(WidthTables.spacingMark, value) {
        total += 1
        lastMeasured = nil
        lastWasVirama = false
        conjunctPending = false
      } else {
        lastWasVirama = WidthTables.contains(WidthTables.virama, value)
      }
      index += 1
    }
    if conjunctPending { total += 1 }
    return total
  }

  /// wcwidth of one scalar: -1 for controls, 0 zero-width, 2 wide, else 1.
  static func scalarWidth(_ value: UInt32) -> Int {
    if value >= 0x20 && value < 0x7F { return 1 }
    if value == 0 { return 0 }
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return -1 }
    if WidthTables.contains(WidthTables.zero, value) { return 0 }
    if WidthTables.contains(WidthTables.wide, value) { return 2 }
    return 1
  }

  static func isRegionalIndicator(_ value: UInt32) -> Bool { (0x1F1E6...0x1F1FF).contains(value) }
}

/// Recognises `ESC [ params intermediates final` (CSI, e.g. SGR colour) one `Character` at a time.
struct EscapeScanner {
  private var state = 0  // 0 text, 1 after ESC, 2 inside CSI

  /// True when `character` belongs to an escape sequence (and so takes no cells).
  mutating func consume(_ character: Character) -> Bool {
    let value = character.unicodeScalars.first!.value
    switch state {
    case 1:
      state = value == 0x5B ? 2 : 0
      return true
    case 2:
      if (0x40...0x7E).contains(value) { state = 0 }
      return true
    default:
      if value == 0x1B && character.unicodeScalars.count == 1 {
        state = 1
        return true
      }
      return false
    }
  }
}
