import ExpenseCore

/// When a card payment was made, for the entries a bank books days after the card was used
/// (a Saturday's purchase booked on Monday): the row is dated when the card was used, as the
/// receipt is, and the booking date stays in its description ("booked 2026-10-05").
///
/// Conservative on purpose: only an entry whose statement says it is a card payment is
/// redated (CAMT.053 `BkTxCd` family `CCRD`/`DCRD`, a `CardTx`, an acceptance time; MT940
/// "Kartenzahlung", "girocard", GVC 106, …: the readers decide), and only to a date on or at
/// most `window` days before the booking.
enum CardDate {
  /// How many days before its booking a card payment may have been made.
  static let window = 31

  /// Whether a card used on `used` can have been booked on `booked`.
  static func plausible(_ used: CivilDate, booked: CivilDate) -> Bool {
    let days = booked.daysSinceEpoch &- used.daysSinceEpoch
    return days >= 0 && days <= window
  }

  /// The date of the first card date and time written in `text`: `2026-10-03T14:22`,
  /// `03.10.2026 14:22`, `03.10.26 14:22` or `03.10 14:22` (without a year: the latest such day
  /// on or before `booked`). A date without its time is not taken: it may be an invoice's.
  static func inText(_ text: String, booked: CivilDate) -> CivilDate? {
    let bytes = Array(text.utf8)
    for start in bytes.indices {
      if start > 0 && isDigit(bytes[start &- 1]) { continue }
      let rest = bytes[start...]
      if matches(rest, "9999-99-99T99:99"), let year = number(rest, 0, 4), let month = number(rest, 5, 2),
        let day = number(rest, 8, 2), let date = CivilDate(year: year, month: month, day: day)
      {
        return date
      }
      guard let day = number(rest, 0, 2), let month = number(rest, 3, 2) else { continue }
      if matches(rest, "99.99.9999 99:99"), let year = number(rest, 6, 4) {
        if let date = CivilDate(year: year, month: month, day: day) { return date }
      } else if matches(rest, "99.99.99 99:99"), let year = number(rest, 6, 2) {
        if let date = CivilDate(year: 2000 &+ year, month: month, day: day) { return date }
      } else if matches(rest, "99.99 99:99") {
        if let date = CivilDate(year: booked.year, month: month, day: day), date <= booked { return date }
        if let date = CivilDate(year: booked.year &- 1, month: month, day: day) { return date }
      }
    }
    return nil
  }

  /// Whether `bytes` start with `pattern`, each `9` of it a digit.
  static func matches(_ bytes: ArraySlice<UInt8>, _ pattern: StaticString) -> Bool {
    guard bytes.count >= pattern.utf8CodeUnitCount else { return false }
    var i = bytes.startIndex
    let shape = UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
    for expected in shape {
      let b = bytes[i]
      if expected == UInt8(ascii: "9") ? !isDigit(b) : b != expected { return false }
      i &+= 1
    }
    return true
  }

  static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

  /// The decimal number of `count` digits at `offset` in `bytes`, or nil.
  static func number(_ bytes: ArraySlice<UInt8>, _ offset: Int, _ count: Int) -> Int? {
    let start = bytes.startIndex &+ offset
    guard start &+ count <= bytes.endIndex else { return nil }
    var value = 0
    for b in bytes[start..<(start &+ count)] {
      guard isDigit(b) else { return nil }
      value = value &* 10 &+ Int(b &- 0x30)
    }
    return value
  }
}

extension StatementEntry {
  /// Dates this card payment on `used`, the day the card was used, when that is plausible
  /// (`CardDate.plausible`) and not its booking date already. What an earlier version made of
  /// the entry (dated by its booking) stays its identity (`identityDate`,
  /// `identityDescription`), so a statement imported then is recognised; the booking date is
  /// added to the description, there being no other place a row keeps it.
  mutating func dateCardPayment(_ used: CivilDate) {
    guard used != date, CardDate.plausible(used, booked: date) else { return }
    if identityDate == nil { identityDate = date }
    if identityDescription == nil { identityDescription = description }
    let booked = "booked \(date)"
    description = description.isEmpty ? booked : description + " / " + booked
    date = used
  }
}
