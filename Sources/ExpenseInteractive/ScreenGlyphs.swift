import ExpenseRender

/// The screen's own characters besides the report's: the row indicator and the ellipsis.
struct ScreenGlyphs {
  /// Before a folded expense row (`▸`) and an expanded one (`▾`); ASCII `>` and `v`.
  let rowClosed: String
  let rowOpen: String
  let ellipsis: String
  let separator: String

  init(_ set: GlyphSet) {
    switch set {
    case .unicode:
      rowClosed = "▸"
      rowOpen = "▾"
      ellipsis = "…"
      separator = "·"
    case .ascii:
      rowClosed = ">"
      rowOpen = "v"
      ellipsis = "..."
      separator = "|"
    }
  }
}
