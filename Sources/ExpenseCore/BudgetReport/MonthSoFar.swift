/// What the report month's own rows say about one category on a given day: how much of its
/// money out is dated after today, and on how many days up to today it spent.
///
/// Why: a projection is "spent so far + what usually comes later". Rows dated after today (a
/// scheduled payment, or `--today` set before the month's last rows) are already in "spent";
/// adding the usual rest of the month on top of them counted them twice. And a category seen on
/// one or two days (rent on the 1st) is no evidence of a daily rate to extrapolate.
struct MonthSoFar: Sendable {
  /// Money out on days after today, in minor units (positive).
  var laterOutflow: Int128 = 0
  /// Days up to and including today with any money out.
  var spendingDays = 0

  init() {}

  /// From the month's day-by-day outflows; without them (not loaded), the rows out stand for
  /// days and nothing is taken to be later than today.
  init(total: CategoryMonthTotal?, daysElapsed: Int) {
    guard let total else { return }
    guard let daily = total.dailyOutflowMinor else {
      spendingDays = max(0, total.count - total.inflowCount)
      return
    }
    for (index, amount) in daily.enumerated() where amount > 0 {
      if index < daysElapsed {
        spendingDays += 1
      } else {
        laterOutflow += Int128(amount)
      }
    }
  }
}
