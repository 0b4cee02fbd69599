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
