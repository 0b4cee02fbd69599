import ExpenseStore
import Foundation
import GRDB

/// The rollup's SQL functions over `DailyOutflow` blobs.
extension DailyOutflow {
  /// `addDaily(a, b)`: the element-wise sum of two daily blobs (`NULL` is all zero); used by
  /// the rollup's upsert.
  static let addFunction = DatabaseFunction("addDaily", argumentCount: 2, pure: true) { values in
    let a = decode(Data.fromDatabaseValue(values[0]))
    let b = decode(Data.fromDatabaseValue(values[1]))
    return encode(zip(a, b).map { add($0, $1) })
  }

  /// `dailyOutflow(day, amountMinor)`: the aggregate that builds a blob from expense rows
  /// (only negative amounts count, as positive outflows).
  struct Aggregate: DatabaseAggregate {
    var sums = [Int64](repeating: 0, count: DailyOutflow.days)

    init() {}

    mutating func step(_ values: [DatabaseValue]) throws {
      guard let day = Int.fromDatabaseValue(values[0]), (1...DailyOutflow.days).contains(day),
        let amount = Int64.fromDatabaseValue(values[1]), amount < 0
      else { return }
      sums[day - 1] = DailyOutflow.add(sums[day - 1], amount == .min ? .max : -amount)
    }

    func finalize() throws -> (any DatabaseValueConvertible)? { DailyOutflow.encode(sums) }
  }

  static let aggregateFunction = DatabaseFunction(
    "dailyOutflow", argumentCount: 2, pure: true, aggregate: Aggregate.self)
}
