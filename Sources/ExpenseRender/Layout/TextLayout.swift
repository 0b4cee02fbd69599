import ExpenseCore

/// Line-level helpers: padding, fitting, flowing parts and wrapping words, all in cells.
enum TextLayout {
  static func spaces(_ n: Int) -> String { n > 0 ? String(repeating: " ", count: n) : "" }

  static func padRight(_ s: String, _ width: Int) -> String { s + spaces(width - DisplayWidth.of(s)) }
  static func padLeft(_ s: String, _ width: Int) -> String { spaces(width - DisplayWidth.of(s)) + s }

  /// `left` and `right` on one line `width` wide, `right` flush right. The left side gives way
  /// (truncated) first; when even `right` does not fit beside a few cells of `left`, it is dropped.
  static func spread(_ left: String, _ right: String, width: Int, ellipsis: String, minLeft: Int = 4) -> String {
    let rightWidth = DisplayWidth.of(right)
    if right.isEmpty { return DisplayWidth.truncate(left, to: width, ellipsis: ellipsis) }
    let room = width - rightWidth - 1
    let leftWidth = DisplayWidth.of(left)
    if room >= min(leftWidth, minLeft) {
      let shown = DisplayWidth.truncate(left, to: room, ellipsis: ellipsis)
      return shown + spaces(width - DisplayWidth.of(shown) - rightWidth) + right
    }
    return DisplayWidth.truncate(left, to: width, ellipsis: ellipsis)
  }

  /// Packs `parts` joined by `separator` into lines of at most `width` cells; the first line starts
  /// with `first`, the others with `rest`. A part too long for a line breaks between its words
  /// (so amounts inside it stay whole); only a single word wider than a line is truncated.
  static func flow(
    _ parts: [String], separator: String, width: Int, first: String, rest: String, ellipsis: String
  ) -> [String] {
    // Tokens with the joiner that precedes them when they continue a line.
    var tokens: [(joiner: String, text: String)] = []
    for part in parts where !part.isEmpty {
      let joiner = tokens.isEmpty ? "" : separator
      let fresh = max(DisplayWidth.of(first), DisplayWidth.of(rest))
      if DisplayWidth.of(part) + fresh <= width || !part.contains(" ") {
        tokens.append((joiner, part))
      } else {
        for (index, word) in part.split(separator: " ").enumerated() {
          tokens.append((index == 0 ? joiner : " ", String(word)))
        }
      }
    }
    var lines: [String] = []
    var current = first
    var hasToken = false
    for token in tokens {
      if hasToken {
        let candidate = current + token.joiner + token.text
        if DisplayWidth.of(candidate) <= width {
          current = candidate
          continue
        }
        lines.append(current)
        current = rest
      }
      current += DisplayWidth.truncate(token.text, to: width - DisplayWidth.of(current), ellipsis: ellipsis)
      hasToken = true
    }
    if hasToken { lines.append(current) }
    return lines
  }

  /// Word-wraps `text` to lines of `width` cells, each starting with `indent`; words longer
  /// than a line are broken between grapheme clusters. Nothing is lost.
  static func wrap(_ text: String, width: Int, indent: String) -> [String] {
    let room = max(1, width - DisplayWidth.of(indent))
    var lines: [String] = []
    var current = ""
    var currentWidth = 0
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      var word = String(word)
      var wordWidth = DisplayWidth.of(word)
      if currentWidth > 0 && currentWidth + 1 + wordWidth <= room {
        current += " " + word
        currentWidth += 1 + wordWidth
        continue
      }
      if currentWidth > 0 {
        lines.append(indent + current)
        current = ""
        currentWidth = 0
      }
      if wordWidth > room {
        // One pass over the word, a line per `room` cells: re-measuring the rest after each
        // piece made a long word quadratic (a 300 KB word took 18 s).
        var piece = ""
        var pieceWidth = 0
        for c in word {
          let w = DisplayWidth.cells(c)
          if pieceWidth + w > room && pieceWidth > 0 {
            lines.append(indent + piece)
            piece = ""
            pieceWidth = 0
          }
          piece.append(c)
          pieceWidth += w
        }
        word = piece
        wordWidth = DisplayWidth.of(piece)
      }
      current = word
      currentWidth = wordWidth
    }
    if currentWidth > 0 { lines.append(indent + current) }
    return lines
  }
}

/// Formats amounts and percentages for one rendering: full or short money, ASCII-safe symbols.
struct Amounts {
  var ascii: Bool
  var short: Bool
  var dash: String

  func money(_ minor: Int64, _ currency: Currency) -> String {
    let text =
      short ? Money.formatShort(minor: minor, currency: currency) : Money.format(minor: minor, currency: currency)
    guard ascii, let symbol = currency.symbol, !DisplayWidth.isPlainASCII(symbol) else { return text }
    // A non-ASCII symbol (€, ¥) becomes the ISO code in ASCII mode: `-EUR 18.40`.
    let negative = text.hasPrefix("-")
    let digits = text.dropFirst((negative ? 1 : 0) + symbol.count)
    return (negative ? "-" : "") + currency.code + " " + digits
  }

  func money(_ minor: Int64?, _ currency: Currency) -> String {
    guard let minor else { return dash }
    return money(minor, currency)
  }

  func percent(_ p: Percent?) -> String {
    guard let p else { return dash }
    return "\(p.rounded)%"
  }

  /// A signed amount, as a carry is shown: `+$40.00`, `-$90.00`, `$0.00`.
  func signed(_ minor: Int64, _ currency: Currency) -> String {
    minor > 0 ? "+" + money(minor, currency) : money(minor, currency)
  }

  /// A signed change: `+28%`, `-5%`, `0%`.
  func change(_ p: Percent?) -> String {
    guard let p else { return dash }
    let r = p.rounded
    return r > 0 ? "+\(r)%" : "\(r)%"
  }
}
