/// Numbers identical rows within one file: 1 for the first, 2 for the second, …
///
/// Memory stays bounded for sorted files: while the dates are monotonic (ascending or
/// descending) only the current date's rows are remembered and the map is cleared when the
/// date changes. The first time the order breaks, the counter stops clearing and keeps every
/// row from then on (`becameUnsorted` reports it once). Rows of a date that was already
/// cleared before the break start counting at 1 again: an exact duplicate split across an
/// unsorted file can then get the fingerprint of its twin (a documented limitation).
struct OccurrenceCounter {
  var counts = OccurrenceTable()
  var currentDay: Int?
  var direction = 0
  var keepAll = false

  /// Returns the occurrence for a row key (the base hash) on a day; `unsortedNow` is true once.
  @inline(__always)
  mutating func next(day: Int, key: UInt64) -> (occurrence: Int, unsortedNow: Bool) {
    var unsortedNow = false
    if let current = currentDay, current != day {
      if !keepAll {
        let step = day > current ? 1 : -1
        if direction == 0 { direction = step }
        if step == direction {
          counts.removeAll()
        } else {
          keepAll = true
          unsortedNow = true
        }
      }
    }
    currentDay = day
    return (Int(counts.increment(key)), unsortedNow)
  }
}
