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

  /// `fit(line:width:)`, breaking at plain spaces only (a no-break space is part of its word).
  static func fitBreakable(line: String, width: Int) -> [String] {
    let width = max(1, width)
    if DisplayWidth.of(line, limit: width) <= width { return [line] }
    let lead = String(line.prefix { $0 == " " })
    let content = line.dropFirst(lead.count)
    // The indent never takes more than half the line, so the words keep room.
    let first = String(lead.prefix(width / 2))
    let rest = String((lead + "  ").prefix(width / 2))
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
