/// Whether the rows of one account (in one currency) agree with the balances its bank stated,
/// and from when they do not: the arithmetic of `expenses accounts` and `expenses reconcile`.
///
/// The rows alone give only movements, never a balance: the earliest statement balance anchors
/// them. What the rows say the account held at the end of day D is that balance plus the rows
/// dated after its day through D (less those between D and it, for a D before it). Every other
/// statement balance is compared with that: equal is a match; unequal is off by the difference
/// (positive: the bank holds more than the rows say, as when a row of money out was deleted or
/// never imported). Pure: the service gives it the balances and the rows' sums per day.
public struct BalanceCheck: Hashable, Sendable {
  /// One stated balance and what the rows say of the same day.
  public struct Point: Hashable, Sendable {
    public var balance: StatementBalance
    /// What the rows say the account held at the end of the balance's day.
    public var fromRowsMinor: Int64
    /// Stated − from the rows: 0 when they agree.
    public var offByMinor: Int64 { Rounding.clamp(Int128(balance.amount.minor) - Int128(fromRowsMinor)) }
  }

  public var currency: Currency
  /// Every stated balance, oldest first, with what the rows say of its day.
  public var points: [Point] = []
  /// What the rows say the account holds after its last row (the anchor moved by every row
  /// after its day, and back by the rows before it); nil without a stated balance.
  public var balanceMinor: Int64? = nil
  /// The last stated balance that agrees with the rows (the anchor agrees by definition).
  public var lastMatch: StatementBalance? {
    points.last { $0.offByMinor == 0 }?.balance
  }
  /// The first stated balance after the last match that disagrees: the account is off by its
  /// difference since its day. Nil when the latest stated balance agrees.
  public var firstOff: Point? {
    guard let last = points.last, last.offByMinor != 0 else { return nil }
    let after = points.lastIndex { $0.offByMinor == 0 }.map { $0 + 1 } ?? 0
    return points[after...].first { $0.offByMinor != 0 }
  }

  /// The days with rows, sorted, and the rows' running sum through each.
  private var days: [CivilDate] = []
  private var through: [Int128] = []
  /// What the account held before its first row, by the anchor; nil without a stated balance.
  private var opening: Int128?

  /// Checks `balances` (of one account, in `currency`; others are ignored) against `daily`, the
  /// rows' sum per day in that currency (money in positive).
  public init(currency: Currency, balances: [StatementBalance], daily: [CivilDate: Int64]) {
    self.currency = currency
    let stated = balances.filter { $0.amount.currency == currency }
      .sorted { ($0.date, $0.file, $0.line) < ($1.date, $1.file, $1.line) }
    days = daily.keys.sorted()
    var sum: Int128 = 0
    for day in days {
      sum += Int128(daily[day] ?? 0)
      through.append(sum)
    }
    guard let anchor = stated.first else { return }
    let opening = Int128(anchor.amount.minor) - cumulative(anchor.date)
    self.opening = opening
    var made: [Point] = []
    for balance in stated {
      made.append(Point(balance: balance, fromRowsMinor: Rounding.clamp(opening + cumulative(balance.date))))
    }
    points = made
    balanceMinor = Rounding.clamp(opening + sum)
  }

  /// What the rows say the account held at the end of `date`; nil without a stated balance.
  public func fromRows(on date: CivilDate) -> Int64? {
    opening.map { Rounding.clamp($0 + cumulative(date)) }
  }

  /// The rows' sum through `date`: the running sum of the last day at or before it.
  private func cumulative(_ date: CivilDate) -> Int128 {
    var low = 0
    var high = days.count
    while low < high {
      let mid = (low + high) / 2
      if days[mid] <= date { low = mid + 1 } else { high = mid }
    }
    return low == 0 ? 0 : through[low - 1]
  }
}
