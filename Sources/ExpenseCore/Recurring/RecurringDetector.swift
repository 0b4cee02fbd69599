/// Finds the recurring payments in a ledger's rows: pure code, fed rows by the service; no
/// store decides what is recurring.
///
/// The evidence, per payee (`PayeeKey`) and currency, tried weekly, then monthly, quarterly and
/// yearly, the first that holds:
/// - at least `minimumPayments` payments each within the interval's tolerance of a due date
///   (a payment a few days early or late is its due date's), no two on one due date; the due
///   day is the one that matches the most payments, nearest;
/// - at most one payment in six that fits no due date (a one-off at the same payee), and at
///   most one due date in six between the first and the latest without a payment (a skipped
///   month), at least one allowed;
/// - amounts in one band: the largest at most twice the smallest (a price change is a series,
///   a shop visited now and then for anything is not).
public struct RecurringDetector: Sendable {
  /// The day the series are judged on: a series with two due dates passed unpaid is stopped.
  public var today: CivilDate
  public static let minimumPayments = 3

  public init(today: CivilDate) { self.today = today }

  /// Every series in `payments`, by payee then currency.
  public func detect(_ payments: [RecurringPayment]) -> [RecurringSeries] {
    var groups: [GroupKey: [RecurringPayment]] = [:]
    for payment in payments where payment.amountMinor > 0 {
      let payee = PayeeKey.of(payment.description)
      guard !payee.isEmpty else { continue }
      groups[GroupKey(payee: payee, currency: payment.currency), default: []].append(payment)
    }
    return groups.compactMap { key, payments -> RecurringSeries? in
      guard payments.count >= Self.minimumPayments else { return nil }
      let sorted = payments.sorted { ($0.date, $0.id ?? 0) < ($1.date, $1.id ?? 0) }
      for interval in RecurringInterval.allCases {
        if let series = series(key, sorted, interval) { return series }
      }
      return nil
    }
    .sorted { ($0.payee, $0.currency.code) < ($1.payee, $1.currency.code) }
  }

  struct GroupKey: Hashable {
    var payee: String
    var currency: Currency
  }

  /// The series `payments` make at `interval`, if the evidence holds.
  func series(_ key: GroupKey, _ payments: [RecurringPayment], _ interval: RecurringInterval) -> RecurringSeries? {
    // More payments than the span has due dates (and the one in six allowed to fit none): a
    // payee paid several times a month is no monthly series, and need not be matched to know.
    if let first = payments.first?.date, let last = payments.last?.date {
      let days = last.daysSinceEpoch - first.daysSinceEpoch
      let dueDates = days / (interval.months.map { $0 * 28 } ?? 7) + 2
      guard payments.count * 5 <= dueDates * 6 else { return nil }
    }
    var best: (schedule: RecurringSchedule, matched: [Int: RecurringPayment], distance: Int)? = nil
    for schedule in candidates(payments, interval) {
      let (matched, distance) = match(payments, schedule)
      let better =
        matched.count > best?.matched.count ?? 0
        || (matched.count == best?.matched.count && distance < best?.distance ?? Int.max)
      if better { best = (schedule, matched, distance) }
    }
    guard let best, best.matched.count >= Self.minimumPayments else { return nil }
    guard (payments.count - best.matched.count) * 6 <= payments.count else { return nil }
    let slots = best.matched.keys.sorted()
    guard let first = slots.first, let latest = slots.last else { return nil }
    let step = interval.months ?? 1
    let span = (latest - first) / step + 1
    guard span - slots.count <= max(1, span / 6) else { return nil }
    let paid = slots.compactMap { slot in
      best.matched[slot].map {
        MatchedPayment(
          due: best.schedule.due(slot), date: $0.date, amountMinor: $0.amountMinor, id: $0.id, category: $0.category)
      }
    }
    let amounts = paid.map(\.amountMinor)
    guard let low = amounts.min(), let high = amounts.max(), high / 2 <= low, high - low <= low,
      let newest = best.matched[latest]
    else { return nil }
    let next = best.schedule.due(best.schedule.following(latest))
    let afterNext = best.schedule.due(best.schedule.following(best.schedule.following(latest)))
    return RecurringSeries(
      payee: key.payee, name: PayeeKey.display(newest.description), currency: key.currency, category: newest.category,
      interval: interval, payments: paid, amountMinor: newest.amountMinor, lowMinor: low, highMinor: high,
      next: next, stopped: today > afterNext.adding(days: interval.graceDays), schedule: best.schedule)
  }

  /// The schedules worth trying: every day of month a payment fell on, at every phase the
  /// interval has (weekly: every weekday a payment fell on). The one matching the most payments
  /// nearest wins: rent on the 1st paid once on the 28th is due on the 1st.
  func candidates(_ payments: [RecurringPayment], _ interval: RecurringInterval) -> [RecurringSchedule] {
    guard let step = interval.months else {
      let anchors = Set(payments.map { (($0.date.daysSinceEpoch % 7) + 7) % 7 })
      return anchors.sorted().map { RecurringSchedule(interval: interval, day: 1, phase: 0, anchor: $0) }
    }
    return Set(payments.map(\.date.day)).sorted().flatMap { day in
      (0..<step).map { RecurringSchedule(interval: interval, day: day, phase: $0, anchor: 0) }
    }
  }

  /// Each due date's payment: the nearest within the tolerance (two on one date: the nearer),
  /// and the days they are off their due dates in all.
  func match(_ payments: [RecurringPayment], _ schedule: RecurringSchedule) -> ([Int: RecurringPayment], Int) {
    var matched: [Int: (payment: RecurringPayment, distance: Int)] = [:]
    for payment in payments {
      let slot = schedule.nearest(payment.date)
      guard slot.distance <= schedule.interval.toleranceDays else { continue }
      if let held = matched[slot.index], held.distance <= slot.distance { continue }
      matched[slot.index] = (payment, slot.distance)
    }
    return (matched.mapValues(\.payment), matched.values.reduce(0) { $0 + $1.distance })
  }
}
