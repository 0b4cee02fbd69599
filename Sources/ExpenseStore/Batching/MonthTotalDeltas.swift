import ExpenseCore
import Foundation

/// Sums per (month, currency, category) of rows being added, kept in memory while a file
/// imports and added to the `monthTotal` rollup at the end, in the same transaction.
///
/// Why in Swift rather than a SQL re-scan of the touched months: the rows are at hand before
/// they are stored, so each batch is summed on the parse thread (`ImportBatcher`) and the writer
/// only takes out the duplicates and merges a few dozen sums per batch, instead of reading the
/// whole import back and sorting it. Memory follows the number of distinct (month, currency,
/// category), not rows.
package struct MonthTotalDeltas {
  package init() {}

  /// The largest outflow or inflow one (month, currency, category) may hold: 2^62 - 1 minor
  /// units (46 quadrillion dollars). Two such sums still add up without passing `Int64.max`,
  /// so the rollup's SQL `outflow + ?` can never overflow into a REAL, and the calculator
  /// can add a few of them without overflowing.
  package static let limit: Int64 = (1 << 62) - 1

  package struct Sums {
    package init() {}

    package var outflow: Int64 = 0
    package var inflow: Int64 = 0
    package var count: Int64 = 0
    /// Rows with a positive amount.
    package var inflowCount: Int64 = 0
    /// Money out per day (see `DailyOutflow`); empty until a row with money out is recorded.
    package var daily: [Int64] = []
  }

  /// Category names by number; 0 is uncategorized ("").
  package private(set) var categories: [String] = [""]
  private var categoryNumbers: [String: Int64] = ["": 0]
  /// Keyed by month index (17 bits) | currency code (24 bits) | category number (22 bits).
  package private(set) var sums: [Int64: Sums] = [:]

  /// Adds one row and returns its key here (for `remove(key:minor:day:)`); throws when a sum
  /// would pass `limit` (`line`: the row's line, if any).
  @discardableResult
  package mutating func add(date: CivilDate, amount: Money, category: String?, line: Int? = nil) throws(TotalOverflow)
    -> Int64
  {
    let key = key(date: date, amount: amount, category: category)
    guard sums[key, default: Sums()].record(amount.minor, day: date.day) else {
      throw TotalOverflow(
        line: line, month: date.calendarMonth.description, currency: amount.currency.code,
        category: category, amount: amount)
    }
    return key
  }

  /// Takes back a row `add` counted under `key` (a duplicate the writer did not store).
  package mutating func remove(key: Int64, minor: Int64, day: Int) {
    sums[key, default: Sums()].unrecord(minor, day: day)
  }

  /// Takes back a row: a duplicate the writer did not store, or a stored row being deleted or
  /// changed (its old values; `apply` then subtracts them and drops rows left empty).
  package mutating func remove(date: CivilDate, amount: Money, category: String?) {
    sums[key(date: date, amount: amount, category: category), default: Sums()].unrecord(
      amount.minor, day: date.day)
  }

  /// Adds another set of sums (a batch's) to these; throws when a sum would pass `limit`.
  package mutating func merge(_ other: MonthTotalDeltas) throws(TotalOverflow) {
    for (key, sums) in other.sums where !sums.isZero {
      let category = other.categories[Int(key & 0x3F_FFFF)]
      let local = (key & ~0x3F_FFFF) | number(of: category.isEmpty ? nil : category)
      guard self.sums[local, default: Sums()].merge(sums) else {
        let (month, currency) = MonthTotalDeltas.monthAndCurrency(key)
        throw TotalOverflow(line: nil, month: month, currency: currency, category: category, amount: nil)
      }
    }
  }

  /// The month (`YYYY-MM`) and currency code packed in a key.
  package static func monthAndCurrency(_ key: Int64) -> (String, String) {
    let monthIndex = Int(key >> 46)
    let month = Month(year: monthIndex / 12, month: monthIndex % 12 + 1)
    let codeBits = (key >> 22) & 0xFF_FFFF
    let currency = String(
      decoding: [UInt8(codeBits >> 16), UInt8(codeBits >> 8 & 0xFF), UInt8(codeBits & 0xFF)], as: UTF8.self)
    return (month?.description ?? "?", currency)
  }

  private mutating func number(of category: String?) -> Int64 {
    var categoryNumber: Int64 = 0
    if let category {
      if let known = categoryNumbers[category] {
        categoryNumber = known
      } else {
        categoryNumber = Int64(categories.count)
        categories.append(category)
        categoryNumbers[category] = categoryNumber
      }
    }
    return categoryNumber
  }

  private mutating func key(date: CivilDate, amount: Money, category: String?) -> Int64 {
    var code: Int64 = 0
    for byte in amount.currency.code.utf8 { code = code << 8 | Int64(byte) }
    let month = Int64(date.year * 12 + date.month - 1)
    return month << 46 | code << 22 | number(of: category)
  }

}

extension MonthTotalDeltas.Sums {
  /// Nothing to add: no row counted and no money (an edit can move money with a count of 0).
  /// Every field of `Sums` must be zero here: a field added later (a per-day split of the
  /// money, say) belongs in this test too, or an edit that moves money between days of one
  /// month would be skipped.
  package var isZero: Bool {
    outflow == 0 && inflow == 0 && count == 0 && inflowCount == 0 && daily.allSatisfy { $0 == 0 }
  }

  /// Adds one amount; false (and nothing changed) when a sum would pass the limit.
  package mutating func record(_ minor: Int64, day: Int) -> Bool {
    let magnitude = minor.magnitude
    guard magnitude <= UInt64(MonthTotalDeltas.limit) else { return false }
    let sum = (minor < 0 ? outflow : inflow) + Int64(magnitude)  // both <= limit: cannot overflow
    guard sum <= MonthTotalDeltas.limit else { return false }
    if minor < 0 {
      outflow = sum
      addDaily(Int64(magnitude), day: day)
    } else {
      inflow = sum
      if minor > 0 { inflowCount += 1 }
    }
    count += 1
    return true
  }

  /// Takes back an amount `record` added. Saturating: the rows taken back are stored ones,
  /// and a hand-edited file may hold amounts no import let in (no stored value can trap here).
  package mutating func unrecord(_ minor: Int64, day: Int) {
    let magnitude = Int64(clamping: minor.magnitude)
    if minor < 0 {
      outflow = Self.saturating(outflow, minus: magnitude)
      addDaily(-magnitude, day: day)
    } else {
      inflow = Self.saturating(inflow, minus: magnitude)
      if minor > 0 { inflowCount = Self.saturating(inflowCount, minus: 1) }
    }
    count = Self.saturating(count, minus: 1)
  }

  /// `value - amount` (amount >= 0), held at `Int64.min`.
  package static func saturating(_ value: Int64, minus amount: Int64) -> Int64 {
    let (result, overflow) = value.subtractingReportingOverflow(amount)
    return overflow ? .min : result
  }

  package mutating func addDaily(_ minor: Int64, day: Int) {
    guard (1...DailyOutflow.days).contains(day) else { return }
    if daily.isEmpty { daily = [Int64](repeating: 0, count: DailyOutflow.days) }
    daily[day - 1] = DailyOutflow.add(daily[day - 1], minor)
  }

  /// Adds another set of sums; false (and nothing changed) when a sum would pass the limit.
  package mutating func merge(_ other: Self) -> Bool {
    let (out, inn) = (outflow + other.outflow, inflow + other.inflow)  // both <= limit: cannot overflow
    guard out <= MonthTotalDeltas.limit, inn <= MonthTotalDeltas.limit else { return false }
    outflow = out
    inflow = inn
    count += other.count
    inflowCount += other.inflowCount
    if !other.daily.isEmpty {
      if daily.isEmpty {
        daily = other.daily
      } else {
        for index in daily.indices { daily[index] = DailyOutflow.add(daily[index], other.daily[index]) }
      }
    }
    return true
  }
}

/// A sum of the monthly rollup that would pass `MonthTotalDeltas.limit`: the rows are refused.
public struct TotalOverflow: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
  /// The line of the row that passed it, when one row did (within one batch).
  public var line: Int?
  /// `YYYY-MM`.
  public var month: String
  public var currency: String
  /// nil: uncategorized.
  public var category: String?
  /// The row's amount, when one row did.
  public var amount: Money?

  package init(line: Int?, month: String, currency: String, category: String?, amount: Money?) {
    self.line = line
    self.month = month
    self.currency = currency
    self.category = category
    self.amount = amount
  }

  /// What happened, for a message that adds the file name in front.
  public var description: String {
    let what = amount.map { "the amount \($0.decimalString)" } ?? "these rows"
    let total = Money(minor: MonthTotalDeltas.limit, currency: Currency(code: currency) ?? .usd).decimalString
    return
      "\(what) would bring the \(month) total of \(category ?? uncategorizedName) (\(currency)) past \(total), the most expenses can add up in one month and category; nothing was written"
  }

  public var errorDescription: String? { description }
}

extension TotalOverflow: ClassifiedError {
  /// The rows are refused: their content is what is wrong.
  public var kind: ErrorKind { .badData }
}
