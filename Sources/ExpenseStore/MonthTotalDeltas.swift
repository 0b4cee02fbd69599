import ExpenseCore
import GRDB

/// Sums per (month, currency, category) of rows being added, kept in memory while a file
/// imports and added to the `monthTotal` rollup at the end, in the same transaction.
///
/// Why in Swift rather than a SQL re-scan of the touched months: the rows are at hand before
/// they are stored, so each batch is summed on the parse thread (`ImportBatcher`) and the writer
/// only takes out the duplicates and merges a few dozen sums per batch, instead of reading the
/// whole import back and sorting it. Memory follows the number of distinct (month, currency,
/// category), not rows.
struct MonthTotalDeltas {
  struct Sums {
    var outflow: Int64 = 0
    var inflow: Int64 = 0
    var count: Int64 = 0
    /// Rows with a positive amount.
    var inflowCount: Int64 = 0
    /// Money out per day (see `DailyOutflow`); empty until a row with money out is recorded.
    var daily: [Int64] = []
  }

  /// Category names by number; 0 is uncategorized ("").
  private var categories: [String] = [""]
  private var categoryNumbers: [String: Int64] = ["": 0]
  /// Keyed by month index (17 bits) | currency code (24 bits) | category number (22 bits).
  private var sums: [Int64: Sums] = [:]

  mutating func add(date: CivilDate, amount: Money, category: String?) {
    sums[key(date: date, amount: amount, category: category), default: Sums()].record(amount.minor, day: date.day)
  }

  /// Takes back a row added before (a duplicate the writer did not store).
  mutating func remove(date: CivilDate, amount: Money, category: String?) {
    sums[key(date: date, amount: amount, category: category), default: Sums()].unrecord(
      amount.minor, day: date.day)
  }

  /// Adds another set of sums (a batch's) to these.
  mutating func merge(_ other: MonthTotalDeltas) {
    for (key, sums) in other.sums where sums.count != 0 {
      let category = other.categories[Int(key & 0x3F_FFFF)]
      let local = (key & ~0x3F_FFFF) | number(of: category.isEmpty ? nil : category)
      self.sums[local, default: Sums()].merge(sums)
    }
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

  /// Adds the sums to `monthTotal`, creating the rows that do not exist yet.
  func apply(_ db: Database) throws {
    let upsert = try db.makeStatement(
      sql: """
        INSERT INTO monthTotal (month, currency, category, outflow, inflow, count, inflowCount, daily)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (month, currency, category) DO UPDATE SET
          outflow = outflow + excluded.outflow, inflow = inflow + excluded.inflow, count = count + excluded.count,
          inflowCount = inflowCount + excluded.inflowCount, daily = addDaily(daily, excluded.daily)
        """)
    for (key, sums) in sums where sums.count != 0 {
      let monthIndex = Int(key >> 46)
      let month = Month(year: monthIndex / 12, month: monthIndex % 12 + 1)
      let codeBits = (key >> 22) & 0xFF_FFFF
      let currency = String(
        decoding: [UInt8(codeBits >> 16), UInt8(codeBits >> 8 & 0xFF), UInt8(codeBits & 0xFF)], as: UTF8.self)
      try upsert.execute(arguments: [
        month?.description, currency, categories[Int(key & 0x3F_FFFF)], sums.outflow, sums.inflow, sums.count,
        sums.inflowCount, sums.daily.isEmpty ? nil : DailyOutflow.encode(sums.daily),
      ])
    }
  }
}

extension MonthTotalDeltas.Sums {
  mutating func record(_ minor: Int64, day: Int) {
    if minor < 0 {
      outflow += -minor
      addDaily(-minor, day: day)
    } else {
      inflow += minor
      if minor > 0 { inflowCount += 1 }
    }
    count += 1
  }

  mutating func unrecord(_ minor: Int64, day: Int) {
    if minor < 0 {
      outflow -= -minor
      addDaily(minor, day: day)
    } else {
      inflow -= minor
      if minor > 0 { inflowCount -= 1 }
    }
    count -= 1
  }

  mutating func addDaily(_ minor: Int64, day: Int) {
    guard (1...DailyOutflow.days).contains(day) else { return }
    if daily.isEmpty { daily = [Int64](repeating: 0, count: DailyOutflow.days) }
    daily[day - 1] = DailyOutflow.add(daily[day - 1], minor)
  }

  mutating func merge(_ other: Self) {
    outflow += other.outflow
    inflow += other.inflow
    count += other.count
    inflowCount += other.inflowCount
    if !other.daily.isEmpty {
      if daily.isEmpty {
        daily = other.daily
      } else {
        for index in daily.indices { daily[index] = DailyOutflow.add(daily[index], other.daily[index]) }
      }
    }
  }
}
