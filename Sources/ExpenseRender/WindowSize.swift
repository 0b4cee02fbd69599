/// The three width classes: compact < 60 ≤ regular < 100 ≤ wide (terminal columns).
public enum WindowSize: String, Sendable, CaseIterable {
  /// Under 60 columns (a phone over SSH): categories as cards, collapsible category section.
  case compact
  /// 60 to 99 columns: a table of the essential columns.
  case regular
  /// 100 columns and more: the table plus 3-month average, change, pace and projection.
  case wide

  /// The class of a terminal `width` columns wide.
  public init(width: Int) {
    if width < 60 {
      self = .compact
    } else if width < 100 {
      self = .regular
    } else {
      self = .wide
    }
  }
}

/// Which characters decorate the output.
public enum GlyphSet: Sendable {
  /// `▶ ▼ █▉▊▋▌▍▎▏ ░ … ─ · ▲ ● ✓ ▁▂▃▄▅▆▇█`.
  case unicode
  /// `> v # . ... - | ! ~` and `_.-=#` sparklines: nothing but ASCII besides user data.
  case ascii
}

/// Everything a text renderer needs besides the report; no environment is consulted.
public struct RenderOptions: Sendable {
  /// Terminal columns; every line fits in this many cells (widths below 20 render, clamped).
  public var width: Int
  public var glyphs: GlyphSet
  /// Screen-reader mode: section states in words, one sentence per category, no bars or rules.
  public var plain: Bool
  /// ANSI SGR colour (over red, near yellow, under green, headers bold); no ESC byte when false.
  public var color: Bool
  /// Expense rows followed by their full description, account and source file:line.
  public var details: Bool
  /// Which sections are expanded.
  public var sections: SectionStates

  public init(
    width: Int, glyphs: GlyphSet = .unicode, plain: Bool = false, color: Bool = false, details: Bool = false,
    sections: SectionStates = .standard
  ) {
    self.width = width
    self.glyphs = glyphs
    self.plain = plain
    self.color = color
    self.details = details
    self.sections = sections
  }

  /// The width class of `width`.
  public var windowSize: WindowSize { WindowSize(width: width) }
}
