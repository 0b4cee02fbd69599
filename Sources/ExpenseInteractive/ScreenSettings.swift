import ExpenseCore
import ExpenseRender

/// How the screen draws, decided once by the driver from flags and the environment.
public struct ScreenSettings: Sendable, Equatable {
  /// Unicode or ASCII glyphs (`--ascii`, or a locale that is not UTF-8).
  public var glyphs: GlyphSet
  /// SGR colour in the report's text (`--color`, `NO_COLOR`).
  public var color: Bool
  /// The short reveal when a section opens (off with `--no-animation`).
  public var animation: Bool

  public init(glyphs: GlyphSet = .unicode, color: Bool = false, animation: Bool = true) {
    self.glyphs = glyphs
    self.color = color
    self.animation = animation
  }
}

/// What the screen asks its driver to do after a key: the screen itself owns no database.
public enum ScreenEffect: Equatable, Sendable {
  /// Save these section states as the preferences (every collapsible section's state).
  case saveSections(SectionStates)
  /// Save accordion mode on or off.
  case saveAccordion(Bool)
  /// Load the report of another month and hand it to `ReportScreen.replaceReport`.
  case loadMonth(Month)
  /// Leave the screen and restore the terminal.
  case quit
}

/// Something the cursor can rest on: a section header or an expense row.
public enum ScreenItem: Hashable, Sendable {
  case header(SectionID)
  /// An expense, by its index in the report's `expenses`.
  case row(Int)

  /// The section the item belongs to.
  public var section: SectionID {
    switch self {
    case .header(let id): return id
    case .row: return .expenses
    }
  }
}
