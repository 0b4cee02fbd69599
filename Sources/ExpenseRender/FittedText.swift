/// Plain listing text fitted to a width: every line that is too wide is word-wrapped, its
/// continuation lines indented two cells past the line's own indent, and a word longer than a
/// line (a path, a hash) is broken between characters. Nothing is cut off and nothing is lost.
///
/// Why: command output that is not a table (`config`, `check`, an import's summary) must fit
/// the terminal like the report does, down to 20 columns, without dropping the very part of a
/// line (a file name, a hint) that says what to do.
public enum FittedText {
  /// Joins words that must stay on one line, a number and its unit (`0.04` and `s`): a line
  /// breaks only at plain spaces, and each no-break space is printed as a plain space.
  public static let noBreakSpace: Character = "\u{00A0}"

  /// `text` (lines separated by `\n`) with every line at most `width` cells; sanitized.
  public static func fit(_ text: String, width: Int) -> String {
    var out = ""
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if text.hasSuffix("\n") { lines.removeLast() }
    for line in lines {
      for piece in fit(line: TerminalText.sanitize(String(line)), width: width) { out += piece + "\n" }
    }
    return out
  }

  /// One line as one or more lines of at most `width` cells.
  public static func fit(line: String, width: Int) -> [String] {
    guard line.contains(noBreakSpace) else { return fitBreakable(line: line, width: width) }
    return fitBreakable(line: line, width: width).map {
      String($0.map { $0 == noBreakSpace ? " " : $0 })
    }
  }

  /// The fewest cells a padded label's value keeps beside it; with less it goes below.
  static let valueRoom = 12

  /// `fit(line:width:)`, breaking at plain spaces only (a no-break space is part of its word).
  ///
  /// A line `label:   value` (a label ending in a colon, padded with two spaces or more, as the
  /// dry run's Detected block aligns its values) keeps its values in one column: it continues
  /// under its value, or, when the value would keep fewer than `valueRoom` cells, the label
  /// stands alone and the value follows on lines indented four cells past it.
  static func fitBreakable(line: String, width: Int) -> [String] {
    let width = max(1, width)
    if DisplayWidth.of(line, limit: width) <= width { return [line] }
    let lead = String(line.prefix { $0 == " " })
    let content = line.dropFirst(lead.count)
    if let label = paddedLabel(content), DisplayWidth.of(lead + content[..<label.end]) <= width {
      let column = DisplayWidth.of(lead) + DisplayWidth.of(String(content[..<label.value]))
      let value = content[label.value...]
      if column + valueRoom <= width {
        return wrap(value, first: lead + content[..<label.value], rest: TextLayout.spaces(column), width: width)
      }
      let under = String((lead + "    ").prefix(width / 2))
      return [lead + content[..<label.end]] + wrap(value, first: under, rest: under, width: width)
    }
    // The indent never takes more than half the line, so the words keep room.
    let first = String(lead.prefix(width / 2))
    let rest = String((lead + "  ").prefix(width / 2))
    return wrap(content, first: first, rest: rest, width: width)
  }

  /// Where a padded label ends (after its colon) and its value starts, in `content`: the first
  /// run of two spaces or more, right after a colon, with a word before and after.
  static func paddedLabel(_ content: Substring) -> (end: Substring.Index, value: Substring.Index)? {
    guard let range = content.range(of: ":  ") else { return nil }
    let end = content.index(after: range.lowerBound)
    guard end > content.startIndex, !content[..<range.lowerBound].contains("  ") else { return nil }
    let value = content[end...].firstIndex { $0 != " " } ?? content.endIndex
    return value < content.endIndex ? (end, value) : nil
  }

  /// `content`'s words in lines of at most `width` cells, the first starting with `first`, the
  /// others with `rest`; a word longer than a line is broken between characters.
  static func wrap(_ content: Substring, first: String, rest: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = first
    var currentWidth = DisplayWidth.of(first)
    var hasWord = false
    for word in content.split(separator: " ", omittingEmptySubsequences: true) {
      let wordWidth = DisplayWidth.of(String(word))
      if hasWord && currentWidth + 1 + wordWidth <= width {
        current += " " + word
        currentWidth += 1 + wordWidth
        continue
      }
      if hasWord {
        lines.append(current)
        current = rest
        currentWidth = DisplayWidth.of(rest)
      }
      if currentWidth + wordWidth <= width {
        current += word
        currentWidth += wordWidth
      } else {
        // Longer than a line: broken between characters, a line per piece.
        for character in word {
          let cells = DisplayWidth.cells(character)
          if currentWidth + cells > width && currentWidth > DisplayWidth.of(rest) {
            lines.append(current)
            current = rest
            currentWidth = DisplayWidth.of(rest)
          }
          current.append(character)
          currentWidth += cells
        }
      }
      hasWord = true
    }
    if hasWord || lines.isEmpty { lines.append(current) }
    return lines
  }
}
