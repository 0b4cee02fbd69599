import ExpenseCore

/// Options resolved for one text rendering: width class, glyphs, colour, section states.
struct TextContext {
  let options: RenderOptions
  /// The width lines must fit; never below 1 (widths under 20 are a CLI error but must not crash).
  let width: Int
  let size: WindowSize
  let glyphs: Glyphs
  let style: Style
  let plain: Bool

  init(options: RenderOptions) {
    self.options = options
    width = max(1, options.width)
    size = WindowSize(width: options.width)
    glyphs = Glyphs(options.glyphs)
    style = Style(enabled: options.color)
    plain = options.plain
  }

  /// Between the parts of a flowed line: ` · `, ASCII ` | `, plain `, `.
  var separator: String { plain ? ", " : " \(glyphs.separator) " }

  var divider: String { String(repeating: glyphs.divider, count: width) }

  /// A section is expanded when it is not collapsible at this width, or the states say so.
  func isExpanded(_ id: SectionID) -> Bool { !id.isCollapsible(size) || options.sections.isExpanded(id) }

  func amounts(short: Bool) -> Amounts { Amounts(ascii: glyphs.ascii, short: short, dash: glyphs.dash) }

  /// Full amounts when the widest of `values` fits in `room` cells, else the short form.
  func amountsFitting(_ values: [Int64], _ currency: Currency, room: Int) -> Amounts {
    let full = amounts(short: false)
    let widest = values.map { DisplayWidth.of(full.money($0, currency)) }.max() ?? 0
    return widest <= max(room, 0) ? full : amounts(short: true)
  }

  /// `1 month`, `6 months`, `2 currencies`: a noun ending in a consonant and `y` takes `ies`.
  static func counted(_ count: Int, _ noun: String) -> String {
    guard count != 1 else { return "1 \(noun)" }
    let consonantY = noun.hasSuffix("y") && !"aeiou".contains(noun.dropLast().last ?? "a")
    return "\(count) " + (consonantY ? noun.dropLast() + "ies" : noun + "s")
  }

  func currencyHeading(_ currency: Currency) -> String {
    plain ? "In \(currency.code):" : style.bold(currency.code)
  }

  /// A section header: `▼ Category Performance (8 · 2 over)`, `▶ Expenses (142)`, the static
  /// `Category Performance vs Budget (8 · 2 over)`, or in plain mode
  /// `Category Performance, expanded, 8 items, 2 over`.
  func header(_ id: SectionID, count: Int, noun: String, bad: String?, expanded: Bool) -> String {
    let counted = noun == "item" ? "\(count)" : TextContext.counted(count, noun)
    if plain {
      var parts = [id.title, expanded ? "expanded" : "collapsed"]
      parts.append(TextContext.counted(count, noun))
      if let bad { parts.append(bad) }
      return parts.joined(separator: ", ")  // flowed by the caller: words, never truncated
    }
    let suffix = "(" + ([counted] + (bad.map { [$0] } ?? [])).joined(separator: " \(glyphs.separator) ") + ")"
    let collapsible = id.isCollapsible(size)
    let prefix = collapsible ? (expanded ? glyphs.expanded : glyphs.collapsed) + " " : ""
    var title = id.title
    if !collapsible && id == .categoryPerformance { title += " vs Budget" }
    let fixed = DisplayWidth.of(prefix) + 1 + DisplayWidth.of(suffix)
    if DisplayWidth.of(title) + fixed > width && id == .categoryPerformance { title = id.title }
    let room = width - fixed
    let line: String
    if room >= 4 {
      line = prefix + DisplayWidth.truncate(title, to: room, ellipsis: glyphs.ellipsis) + " " + suffix
    } else {
      line = DisplayWidth.truncate(prefix + title + " " + suffix, to: width, ellipsis: glyphs.ellipsis)
    }
    return style.bold(line)
  }
}

/// Collects output lines; each is checked against the width once more as it is added, so a
/// layout mistake truncates a line instead of breaking the hard rule.
struct TextOutput {
  let context: TextContext
  private(set) var lines: [String] = []
  /// Whether the last line added is a collapsed section header.
  var lastWasCollapsedHeader = false

  init(context: TextContext) { self.context = context }

  mutating func add(_ line: String) {
    lastWasCollapsedHeader = false
    let trimmed = trimTrailingSpaces(line)
    if DisplayWidth.of(trimmed) <= context.width {
      lines.append(trimmed)
    } else {
      lines.append(DisplayWidth.truncate(trimmed, to: context.width, ellipsis: context.glyphs.ellipsis))
    }
  }

  mutating func blank() {
    if let last = lines.last, !last.isEmpty { lines.append("") }
  }

  mutating func addFlow(_ parts: [String], separator: String, first: String = "", rest: String = "  ") {
    for line in TextLayout.flow(
      parts, separator: separator, width: context.width, first: first, rest: rest, ellipsis: context.glyphs.ellipsis)
    {
      add(line)
    }
  }

  var text: String { lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n" }
}
