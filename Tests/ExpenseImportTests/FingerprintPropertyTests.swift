import ExpenseCore
import Foundation
import TestSupport
import Testing

@testable import ExpenseImport

/// The importer computes each row's fingerprint in stages straight from the field bytes (the
/// prefix kept while account, date and currency repeat; the description hashed while it is
/// copied). This holds that fast path equal to the one definition, `Fingerprint.hash`, on
/// random files with account and currency columns, non-ASCII text, messy spacing and exact
/// duplicates.
@Suite struct FingerprintPropertyTests {
  static let words = [
    "Coffee", "STARBUCKS", "café", "Café", "Müller", "東京 駅", "Ελληνικά", "naïve", "🍕 pizza", "REWE", "Ünïcødé",
    "a/b", "#123", "Zürich", "Ödön",
  ]
  static let accounts = ["Checking", "Épargne", "VISA 1234", "家計", ""]
  static let currencies: [(code: String, decimals: Int)] = [("EUR", 2), ("USD", 2), ("JPY", 0), ("KWD", 3)]

  struct Generated {
    var date: CivilDate
    var account: String
    var currency: Currency
    var minor: Int64
    var description: String
  }

  /// ASCII letters lower-cased: the fingerprint's notion of "the same description".
  static func asciiLower(_ s: String) -> String {
    String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
  }

  static func amountText(_ minor: Int64, decimals: Int) -> String {
    guard decimals > 0 else { return String(minor) }
    let scale = Int64([1, 10, 100, 1000][decimals])
    let sign = minor < 0 ? "-" : ""
    let magnitude = minor.magnitude
    let fraction = String(magnitude % UInt64(scale))
    return sign + String(magnitude / UInt64(scale)) + "." + String(repeating: "0", count: decimals - fraction.count)
      + fraction
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func fastPathEqualsTheDefinition(seed: UInt64) throws {
    var random = SeededRandom(state: seed &* 0x9E37_79B9)
    var day = CivilDate(year: 2026, month: 1, day: 1)!.daysSinceEpoch
    var expected: [Generated] = []
    var csv = "Date,Description,Amount,Currency,Account\n"
    for _ in 0..<300 {
      if random.int(0...3) == 0 { day += 1 }
      if random.int(0...9) == 0, var twin = expected.last {
        // An exact duplicate of the row before (same day): the occurrence tells them apart.
        twin.date = CivilDate(daysSinceEpoch: day)
        expected.append(twin)
      } else {
        let currency = FingerprintPropertyTests.currencies[random.int(0...3)]
        let pieces = (0..<random.int(1...3)).map { _ in FingerprintPropertyTests.words[random.int(0...14)] }
        expected.append(
          Generated(
            date: CivilDate(daysSinceEpoch: day), account: FingerprintPropertyTests.accounts[random.int(0...4)],
            currency: Currency(code: currency.code)!, minor: Int64(random.int(-500_000...500_000)),
            description: pieces.joined(separator: " ")))
      }
      let row = expected[expected.count - 1]
      // Messy spacing in the file; the stored description has runs collapsed and ends trimmed.
      let spaced = row.description.replacingOccurrences(of: " ", with: random.int(0...1) == 0 ? " " : "  \t ")
      let decimals = FingerprintPropertyTests.currencies.first { $0.code == row.currency.code }!.decimals
      csv +=
        "\(row.date),\"\(random.int(0...1) == 0 ? " " : "")\(spaced)\",\(FingerprintPropertyTests.amountText(row.minor, decimals: decimals)),"
        + "\(row.currency.code),\(row.account)\n"
    }
    let rows = try importAll(temporaryFile(csv)).rows
    try #require(rows.count == expected.count, "every generated row is imported")
    var seen: [String: Int] = [:]
    for (row, want) in zip(rows, expected) {
      #expect(row.description == want.description, "line \(row.line)")
      #expect(row.amount == Money(minor: want.minor, currency: want.currency), "line \(row.line)")
      #expect((row.account ?? "") == want.account, "line \(row.line)")
      let identity =
        "\(want.account)|\(want.date)|\(want.currency.code)|\(want.minor)|\(FingerprintPropertyTests.asciiLower(want.description))"
      seen[identity, default: 0] += 1
      let definition = Fingerprint.hash(
        account: want.account, date: want.date, currency: want.currency, amountMinor: want.minor,
        description: want.description, occurrence: seen[identity]!)
      #expect(row.fingerprintHash == definition, "line \(row.line): \(want.description)")
    }
  }
}
