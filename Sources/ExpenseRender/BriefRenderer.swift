import ExpenseCore

/// The report as one line for a prompt, a phone or a status bar (`report --brief`):
/// `Nov: $278 left · 11 days · 2 over · 1 projected over · 1 goal behind`. Parts are dropped
/// from the end until the line fits the width (amounts shortened first), never wrapped.
public struct BriefRenderer {
  public var width: Int
  public var glyphSet: GlyphSet

  public init(width: Int, glyphs: GlyphSet) {
    self.width = width
    glyphSet = glyphs
  }

  var glyphs: Glyphs { Glyphs(glyphSet) }

  /// The line, with its line break.
  public func render(_ report: BudgetReport) -> String {
    let separator = " \(glyphs.separator) "
    for short in [false, true] {
      var parts = self.parts(report, short: short)
      while !parts.isEmpty {
        let line = parts.joined(separator: separator)
        if DisplayWidth.of(line) <= width { return line + "\n" }
        // The headline (the month and what is left) stays whole as long as it can.
        if parts.count <= 2 && !short { break }
        parts.removeLast()
      }
    }
    let line = parts(report, short: true).prefix(2).joined(separator: separator)
    return DisplayWidth.truncate(line, to: width, ellipsis: glyphs.ellipsis) + "\n"
  }

  /// Every part, most important first.
  func parts(_ report: BudgetReport, short: Bool) -> [String] {
    let amounts = Amounts(ascii: glyphs.ascii, short: short, dash: glyphs.dash)
    var parts = ["\(report.month.shortName):"]
    var money: [String] = []
    for group in report.groups {
      let total = group.totals.row
      guard let remaining = total.remainingMinor else {
        money.append("\(amounts.money(total.spentMinor, group.currency)) spent")
        continue
      }
      money.append(
        remaining < 0
          ? "\(amounts.money(Int64(clamping: remaining.magnitude), group.currency)) over budget"
          : "\(amounts.money(remaining, group.currency)) left")
    }
    if money.isEmpty { money.append("nothing spent") }
    parts[0] += " " + money.joined(separator: ", ")
    if let left = report.daysLeft { parts.append(left == 1 ? "1 day" : "\(left) days") }
    let alarm = report.alarm
    if !alarm.over.isEmpty { parts.append("\(alarm.over.count) over") }
    if !alarm.projectedOver.isEmpty { parts.append("\(alarm.projectedOver.count) projected over") }
    let late = GoalWords.late(report.goals)
    if late > 0 { parts.append(late == 1 ? "1 goal behind" : "\(late) goals behind") }
    return parts
  }
}
