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
    // A bank repeats its descriptions (about three rows a text): each is folded once.
    var keys: [String: String] = [:]
    for payment in payments where payment.amountMinor > 0 {
      let payee: String
      if let known = keys[payment.description] {
        payee = known
      } else {
        payee = PayeeKey.of(payment.description)
        keys[payment.description] = payee
      }
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
    guard gapsAllow(payments, interval) else { return nil }
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

  /// A test no series fails, cheap enough for every payee: the days between consecutive
  /// payments are whole intervals give or take twice the tolerance (each payment may be that
  /// far off its due date) and three days a month apart (months are not all alike). A payment
  /// that fits no due date spoils at most the two gaps beside it, and one in six may; payees
  /// paid on any day fail here instead of in the matching, which tries every due day.
  func gapsAllow(_ payments: [RecurringPayment], _ interval: RecurringInterval) -> Bool {
    let length: Double =
      switch interval {
      case .weekly: 7
      case .monthly: 30.44
      case .quarterly: 91.31
      case .yearly: 365.25
      }
    var consistent = 0
    for (earlier, later) in zip(payments, payments.dropFirst()) {
      let gap = Double(later.date.daysSinceEpoch - earlier.date.daysSinceEpoch)
      let steps = (gap / length).rounded()
      guard steps >= 1 else { continue }
      let slack = Double(2 * interval.toleranceDays) + (interval.months == nil ? 0 : 3 * steps)
      if abs(gap - steps * length) <= slack { consistent += 1 }
    }
    return consistent >= payments.count - 1 - 2 * (payments.count / 6)
  }

  /// The schedules worth trying: the days of month payments fell on most often (a series'
  /// due day is where most of its payments fall), at every phase the interval has (weekly:
  /// every weekday a payment fell on). The one matching the most payments nearest wins: rent on
  /// the 1st paid once on the 28th is due on the 1st.
  func candidates(_ payments: [RecurringPayment], _ interval: RecurringInterval) -> [RecurringSchedule] {
    guard let step = interval.months else {
      let anchors = Set(payments.map { (($0.date.daysSinceEpoch % 7) + 7) % 7 })
      return anchors.sorted().map { RecurringSchedule(interval: interval, day: 1, phase: 0, anchor: $0) }
    }
    var counts: [Int: Int] = [:]
    for payment in payments { counts[payment.date.day, default: 0] += 1 }
    let days = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(4).map(\.key).sorted()
    return days.flatMap { day in
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
