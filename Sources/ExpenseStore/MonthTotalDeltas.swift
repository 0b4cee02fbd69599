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
  }

  /// Category names by number; 0 is uncategorized ("").
  private var categories: [String] = [""]
  private var categoryNumbers: [String: Int64] = ["": 0]
  /// Keyed by month index (17 bits) | currency code (24 bits) | category number (22 bits).
  private var sums: [Int64: Sums] = [:]

  mutating func add(date: CivilDate, amount: Money, category: String?) {
    sums[key(date: date, amount: amount, category: category), default: Sums()].record(amount.minor)
  }

  /// Takes back a row: a duplicate the writer did not store, or a stored row being deleted or
  /// changed (its old values; `apply` then subtracts them and drops rows left empty).
  mutating func remove(date: CivilDate, amount: Money, category: String?) {
    sums[key(date: date, amount: amount, category: category), default: Sums()].unrecord(amount.minor)
  }

  /// Adds another set of sums (a batch's) to these.
  mutating func merge(_ other: MonthTotalDeltas) {
    for (key, sums) in other.sums where !sums.isZero {
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

  /// Adds the sums to `monthTotal`, creating the rows that do not exist yet and deleting the
  /// ones whose count falls to zero (so a month or category with no row left is gone from the
  /// report, its history start and the category list).
  func apply(_ db: Database) throws {
    let upsert = try db.makeStatement(
      sql: """
        INSERT INTO monthTotal (month, currency, category, outflow, inflow, count) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (month, currency, category) DO UPDATE SET
          outflow = outflow + excluded.outflow, inflow = inflow + excluded.inflow, count = count + excluded.count
        """)
    let dropEmpty = try db.makeStatement(
      sql: "DELETE FROM monthTotal WHERE month = ? AND currency = ? AND category = ? AND count <= 0")
    for (key, sums) in sums where !sums.isZero {
      let monthIndex = Int(key >> 46)
      let month = Month(year: monthIndex / 12, month: monthIndex % 12 + 1)
      let codeBits = (key >> 22) & 0xFF_FFFF
      let currency = String(
        decoding: [UInt8(codeBits >> 16), UInt8(codeBits >> 8 & 0xFF), UInt8(codeBits & 0xFF)], as: UTF8.self)
      let category = categories[Int(key & 0x3F_FFFF)]
      try upsert.execute(arguments: [month?.description, currency, category, sums.outflow, sums.inflow, sums.count])
      if sums.count < 0 { try dropEmpty.execute(arguments: [month?.description, currency, category]) }
    }
  }
}

extension MonthTotalDeltas.Sums {
  /// Nothing to add: no row counted and no money (an edit can move money with a count of 0).
  var isZero: Bool { outflow == 0 && inflow == 0 && count == 0 }

  mutating func record(_ minor: Int64) {
    if minor < 0 { outflow += -minor } else { inflow += minor }
    count += 1
  }

  mutating func unrecord(_ minor: Int64) {
    if minor < 0 { outflow -= -minor } else { inflow -= minor }
    count -= 1
  }

  mutating func merge(_ other: Self) {
    outflow += other.outflow
    inflow += other.inflow
    count += other.count
  }
}
