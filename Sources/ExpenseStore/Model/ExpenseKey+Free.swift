import ExpenseCore

extension ExpenseKey {
  /// A key on `day` that no stored row uses (`isTaken`), for a row without a fingerprint (added
  /// by hand, or moved to another day by an edit). The first probe is `seed` (the row's id)
  /// mixed into the day's hash bits, so keys of hand-added rows spread over the day's range;
  /// a taken key is followed by the next. Every store asks this, so a row gets the same key
  /// whichever store holds it.
  public static func free(on day: CivilDate, seed: Int64, isTaken: (Int64) throws -> Bool) throws -> Int64 {
    var mixed = UInt64(bitPattern: seed) &* 0x9E37_79B9_7F4A_7C15
    mixed ^= mixed >> 29
    var key = ExpenseKey(date: day, fingerprintHash: mixed).rawValue
    let last = ExpenseKey.range(day: ExpenseKey.storedDay(day)).upperBound
    // Almost always the first probe: a day holds a handful of rows among 2^43 keys.
    while try isTaken(key) {
      guard key < last else { throw StoreError.sqlite("no free key on \(day)") }
      key += 1
    }
    return key
  }
}
