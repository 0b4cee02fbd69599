/// An expense's identity in the store: its day and 43 bits of its fingerprint hash in one
/// signed 64-bit integer, `day << 43 | hash`, the expense table's INTEGER PRIMARY KEY.
///
/// Why this layout: the table is clustered by date (a month is one key range, so a report reads
/// a contiguous run of pages), and a duplicate row is a key that is already stored (one b-tree
/// probe, no second index). The day is `daysSinceEpoch + 2^19` in 20 bits (1 Jan 1970 ± 1,435
/// years), always positive, so keys sort by date.
///
/// This is the only place the layout is written down: the store, the batcher, the integrity
/// check's SQL and the benchmark's bounds all go through it (the Python benchmark repeats the
/// arithmetic and names this file).
public struct ExpenseKey: RawRepresentable, Hashable, Comparable, Sendable {
  /// How many low bits hold the fingerprint hash.
  public static let hashBits: Int64 = 43
  /// Added to `daysSinceEpoch` so that the stored day is never negative.
  public static let dayBias: Int64 = 1 << 19
  /// The stored day's width mask (20 bits).
  public static let dayMask: Int64 = 0xF_FFFF
  /// The low bits' mask.
  public static let hashMask: Int64 = (1 << hashBits) - 1

  public let rawValue: Int64

  public init(rawValue: Int64) { self.rawValue = rawValue }

  /// The key of a row on `date` with this fingerprint hash (the hash's top bits are dropped).
  @inlinable
  public init(date: CivilDate, fingerprintHash: UInt64) {
    self.init(day: ExpenseKey.storedDay(date), hash: Int64(fingerprintHash & UInt64(ExpenseKey.hashMask)))
  }

  /// The key of stored day `day` (see `storedDay`) and low bits `hash`.
  @inlinable
  public init(day: Int64, hash: Int64) { rawValue = day << ExpenseKey.hashBits | hash }

  /// The stored day of a date: `daysSinceEpoch + dayBias`, 20 bits. A date outside 1970 ±
  /// 1,435 years would wrap to another day, which is why writes refuse dates outside
  /// `CivilDate.supportedRange`.
  @inlinable
  public static func storedDay(_ date: CivilDate) -> Int64 {
    (Int64(date.daysSinceEpoch) + dayBias) & dayMask
  }

  /// The stored day this key belongs to.
  public var day: Int64 { rawValue >> ExpenseKey.hashBits }

  /// The date this key belongs to: exact for every date in `CivilDate.supportedRange` (the
  /// only dates the store accepts); any other key (one written by an older version, a damaged
  /// file) gives a date in `CivilDate.representableRange`, never a trap.
  public var date: CivilDate { CivilDate(daysSinceEpoch: Int(day - ExpenseKey.dayBias)) }

  /// Every key of stored day `day`.
  public static func range(day: Int64) -> ClosedRange<Int64> {
    ExpenseKey(day: day, hash: 0).rawValue...ExpenseKey(day: day, hash: hashMask).rawValue
  }

  /// Every key from the first day through the last day: a month is one range of the table.
  public static func range(from first: CivilDate, through last: CivilDate) -> ClosedRange<Int64> {
    range(day: storedDay(first)).lowerBound...range(day: storedDay(last)).upperBound
  }

  /// SQL for the day (days since 1970-01-01) of the `key` column, as SQLite computes it.
  public static let sqlDaysSinceEpoch = "(((key >> \(hashBits)) & \(dayMask)) - \(dayBias))"

  public static func < (a: ExpenseKey, b: ExpenseKey) -> Bool { a.rawValue < b.rawValue }
}
