/// What a report's projection needs of the recurring payments of one category: what is still
/// due this month, and which days of which months its payments were. The projection adds the
/// amounts still due instead of extrapolating them, and extrapolates the rest of the category
/// from its other spending only, so rent not yet seen is expected once, never twice.
public struct RecurringCategory: Hashable, Sendable {
  /// Due this month and not paid (late ones included), in minor units.
  public var stillDueMinor: Int64 = 0
  /// The series' payments per month and day of month, in minor units.
  public var paid: [Month: [Int: Int64]] = [:]

  public init(stillDueMinor: Int64 = 0, paid: [Month: [Int: Int64]] = [:]) {
    self.stillDueMinor = stillDueMinor
    self.paid = paid
  }

  /// A category of a currency, under its stored name (`Uncategorized` for none).
  public struct Key: Hashable, Sendable {
    public var currency: Currency
    public var category: String
    public init(currency: Currency, category: String?) {
      self.currency = currency
      self.category = category ?? uncategorizedName
    }
  }

  /// The recurring payments of `series` in `month`, per category, as of `today`. A stopped
  /// series is still subtracted from the months it paid in, and expects nothing.
  public static func of(_ series: [RecurringSeries], month: Month, today: CivilDate) -> [Key: RecurringCategory] {
    var result: [Key: RecurringCategory] = [:]
    for one in series {
      for payment in one.payments {
        let key = Key(currency: one.currency, category: payment.category)
        let paidIn = payment.date.calendarMonth
        let held = result[key]?.paid[paidIn]?[payment.date.day] ?? 0
        result[key, default: .init()].paid[paidIn, default: [:]][payment.date.day] = Rounding.clamp(
          Int128(held) + Int128(payment.amountMinor))
      }
      guard month.contains(today) else { continue }
      let due = one.dues(in: month, today: today).filter { $0.status != .paid }
      guard !due.isEmpty else { continue }
      let key = Key(currency: one.currency, category: one.category)
      result[key, default: .init()].stillDueMinor = Rounding.clamp(
        Int128(result[key]?.stillDueMinor ?? 0) + due.reduce(Int128(0)) { $0 + Int128($1.amountMinor) })
    }
    return result
  }
}
