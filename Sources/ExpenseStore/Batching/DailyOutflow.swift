import ExpenseCore
import Foundation

/// Money out per day of a month, as `monthTotal.daily` stores it: 31 little-endian `Int64`s
/// (index 0 is the 1st), `NULL` meaning all zero.
///
/// Why a blob in the monthly rollup rather than a `dayTotal` table: shaped pace needs each
/// category's days for six months, and an import must keep that exact. A row per (day,
/// currency, category) is tens of thousands of extra upserts per large import (the generated
/// 1M-row file fills about 90k such cells); a blob per (month, currency, category) is one more
/// column on the rows the import already upserts (about 3k for ten years), added in SQL by
/// `addDaily`. A report reads the blobs of six months (a few hundred rows at most).
package enum DailyOutflow {
  package static let days = 31

  package static func encode(_ sums: [Int64]) -> Data {
    var data = Data(count: days * 8)
    data.withUnsafeMutableBytes { raw in
      for index in 0..<min(days, sums.count) {
        raw.storeBytes(of: sums[index].littleEndian, toByteOffset: index * 8, as: Int64.self)
      }
    }
    return data
  }

  package static func decode(_ data: Data?) -> [Int64] {
    var sums = [Int64](repeating: 0, count: days)
    guard let data else { return sums }
    data.withUnsafeBytes { raw in
      for index in 0..<min(days, raw.count / 8) {
        sums[index] = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: Int64.self))
      }
    }
    return sums
  }

  /// `a + b` capped at the `Int64` limits: a rollup never traps and never wraps.
  package static func add(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? .max : .min) : sum
  }
}
