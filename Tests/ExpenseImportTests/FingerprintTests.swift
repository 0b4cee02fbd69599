import ExpenseCore
import Testing

@testable import ExpenseImport

@Suite struct FingerprintTests {
  @Test func fixedInputGivesPinnedHex() {
    let date = CivilDate(year: 2026, month: 10, day: 20)!
    let fp = Fingerprint.make(
      account: "Checking", date: date, currency: .usd, amountMinor: -1250, description: "STARBUCKS #123",
      occurrence: 1)
    #expect(fp.count == 16)
    #expect(fp == FingerprintTests.pinned)
  }

  static let pinned = "0a30961fdad61b9d"  // computed independently with a Python FNV-1a 64
}
