import ExpenseCore

/// The concrete characters of a `GlyphSet`.
struct Glyphs {
  let expanded: String
  let collapsed: String
  let divider: String
  let ellipsis: String
  let separator: String
  let overMark: String
  let nearMark: String
  let underMark: String
  let dash: String
  /// Bar eighths from 1/8 to 8/8.
  let eighths: [String]
  let barEmpty: String
  let barOverflow: String
  let spark: [String]
  let ascii: Bool

  init(_ set: GlyphSet) {
    switch set {
    case .unicode:
      expanded = "▼"
      collapsed = "▶"
      divider = "─"
      ellipsis = "…"
      separator = "·"
      overMark = "▲"
      nearMark = "●"
      underMark = "✓"
      dash = "—"
      eighths = ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"]
      barEmpty = "░"
      barOverflow = "▸"
      spark = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
      ascii = false
    case .ascii:
      expanded = "v"
      collapsed = ">"
      divider = "-"
      ellipsis = "..."
      separator = "|"
      overMark = "!"
      nearMark = "~"
      underMark = "+"
      dash = "-"
      eighths = ["#", "#", "#", "#", "#", "#", "#", "#"]
      barEmpty = "."
      barOverflow = "+"
      spark = ["_", ".", "-", "=", "#"]
      ascii = true
    }
  }

  /// A bar `track` cells long for `tenths` of a percent (1000 = full). Past 100 % the track is
  /// full and an overflow marker follows it. `fillEmpty` draws the unfilled part (cards).
  func bar(tenths: Int64, track: Int, fillEmpty: Bool) -> String {
    guard track > 0 else { return "" }
    let clamped = max(0, min(tenths, 1000))
    var out = ""
    var used = 0
    if ascii {
      let cells = Int((Int128(clamped) * Int128(track) + 500) / 1000)
      out = String(repeating: "#", count: cells)
      used = cells
    } else {
      let eighthsTotal = Int((Int128(clamped) * Int128(track) * 8 + 500) / 1000)
      out = String(repeating: "█", count: eighthsTotal / 8)
      used = eighthsTotal / 8
      if eighthsTotal % 8 > 0 {
        out += eighths[eighthsTotal % 8 - 1]
        used += 1
      }
    }
    if fillEmpty && used < track { out += String(repeating: barEmpty, count: track - used) }
    if tenths > 1000 { out += barOverflow }
    return out
  }

  /// Status mark for a category: over, near, under, or nothing for unbudgeted rows.
  func mark(_ status: BudgetStatus) -> String {
    switch status {
    case .over: return overMark
    case .near: return nearMark
    case .under: return underMark
    case .unbudgeted: return ""
    }
  }
}

/// ANSI SGR colour, only ever added to text that already says the same thing in words.
struct Style {
  let enabled: Bool

  func apply(_ code: String, _ text: String) -> String {
    guard enabled, !text.isEmpty else { return text }
    return "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }

  func bold(_ text: String) -> String { apply("1", text) }

  func status(_ status: BudgetStatus, _ text: String) -> String {
    switch status {
    case .over: return apply("31", text)
    case .near: return apply("33", text)
    case .under: return apply("32", text)
    case .unbudgeted: return text
    }
  }
}
