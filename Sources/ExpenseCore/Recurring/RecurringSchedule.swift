/// Where a series' due dates fall, and which due date a payment belongs to.
///
/// Monthly, quarterly and yearly: day `day` (the last day in a shorter month) of every month
/// whose index (year × 12 + month − 1) is `phase` modulo the interval's months. Weekly: every
/// seventh day from `anchor`.
struct RecurringSchedule: Hashable, Sendable, Codable {
  var interval: RecurringInterval
  var day: Int
  var phase: Int
  var anchor: Int

  /// The due date of slot `index` (a month index, or weeks from `anchor`).
  func due(_ index: Int) -> CivilDate {
    guard interval.months != nil else { return CivilDate(daysSinceEpoch: anchor + 7 * index) }
    let year = index >= 0 ? index / 12 : (index - 11) / 12
    let month = index - year * 12 + 1
    return CivilDate(validYear: year, month: month, day: min(day, CivilDate.daysIn(year: year, month: month)))
  }

  /// The slot after `index`.
  func following(_ index: Int) -> Int { index + (interval.months ?? 1) }

  /// The slot nearest `date` and how many days away its due date is.
  func nearest(_ date: CivilDate) -> (index: Int, distance: Int) {
    guard let step = interval.months else {
      let offset = date.daysSinceEpoch - anchor
      let index = Int((Double(offset) / 7).rounded())
      return (index, abs(offset - 7 * index))
    }
    let own = date.year * 12 + date.month - 1
    var best = (index: 0, distance: Int.max)
    for candidate in (own - step)...(own + step) where (candidate - phase).isMultiple(of: step) {
      let distance = abs(due(candidate).daysSinceEpoch - date.daysSinceEpoch)
      if distance < best.distance { best = (candidate, distance) }
    }
    return best
  }

  /// The due dates that fall in `month`, oldest first.
  func dueDates(in month: Month) -> [CivilDate] {
    guard let step = interval.months else {
      let first = month.firstDay.daysSinceEpoch
      let last = month.lastDay.daysSinceEpoch
      var index = Int((Double(first - anchor) / 7).rounded(.up))
      var dates: [CivilDate] = []
      while anchor + 7 * index <= last {
        dates.append(due(index))
        index += 1
      }
      return dates
    }
    let index = month.year * 12 + month.month - 1
    return (index - phase).isMultiple(of: step) ? [due(index)] : []
  }
}
