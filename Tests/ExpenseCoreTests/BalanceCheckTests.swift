import ExpenseCore
import Testing

/// The balance check by hand: the earliest stated balance anchors the rows; every later one is
/// compared with the anchor moved by the rows between.
@Suite struct BalanceCheckTests {
  static func day(_ raw: String) -> CivilDate { (try? CivilDate.parse(raw)) ?? CivilDate.supportedRange.lowerBound }

  static func stated(_ date: String, _ minor: Int64, line: Int = 1) -> StatementBalance {
    StatementBalance(
      account: "Checking", date: day(date), amount: Money(minor: minor, currency: .usd), file: "s.ofx", line: line,
      source: "OFX LEDGERBAL")
  }

  /// September ends at 1,154.60; October moves +2,000 − 1,200 − 92.10 − 45.00 to 1,817.50.
  static let daily: [CivilDate: Int64] = [
    day("2026-09-02"): 200_000, day("2026-09-05"): -120_000, day("2026-09-12"): -8_540, day("2026-09-20"): -6_000,
    day("2026-10-02"): 200_000, day("2026-10-05"): -120_000, day("2026-10-14"): -9_210, day("2026-10-22"): -4_500,
  ]

  @Test func rowsThatAgreeMatchEveryBalance() {
    let check = BalanceCheck(
      currency: .usd, balances: [Self.stated("2026-10-31", 181_750), Self.stated("2026-09-30", 115_460)],
      daily: Self.daily)
    #expect(check.points.map(\.offByMinor) == [0, 0])
    #expect(check.points.first?.balance.date == Self.day("2026-09-30"), "oldest first")
    #expect(check.balanceMinor == 181_750)
    #expect(check.lastMatch?.date == Self.day("2026-10-31") && check.firstOff == nil)
    // 15 October: 1,154.60 + 2,000 − 1,200 − 92.10.
    #expect(check.fromRows(on: Self.day("2026-10-15")) == 186_250)
    // Before the anchor: the anchor less the rows between (31 August: 1,154.60 − 655.40 + 0).
    #expect(check.fromRows(on: Self.day("2026-08-31")) == 50_000)
  }

  @Test func aMissingRowIsOffByItsAmountFromTheNextBalance() throws {
    var daily = Self.daily
    daily[Self.day("2026-10-14")] = nil
    let check = BalanceCheck(
      currency: .usd,
      balances: [
        Self.stated("2026-09-30", 115_460), Self.stated("2026-10-31", 181_750), Self.stated("2026-11-30", 181_750),
      ],
      daily: daily)
    #expect(check.points.map(\.offByMinor) == [0, -9_210, -9_210])
    let off = try #require(check.firstOff)
    #expect(off.balance.date == Self.day("2026-10-31") && off.fromRowsMinor == 190_960)
    #expect(check.lastMatch?.date == Self.day("2026-09-30"))
    #expect(check.balanceMinor == 190_960, "what the rows say, anchored on September")
  }

  @Test func otherCurrenciesAndNoBalanceAreLeftOut() {
    var euro = Self.stated("2026-10-31", 5_000)
    euro.amount = Money(minor: 5_000, currency: Currency(code: "EUR") ?? .usd)
    let check = BalanceCheck(currency: .usd, balances: [euro], daily: Self.daily)
    #expect(check.points.isEmpty && check.balanceMinor == nil && check.fromRows(on: Self.day("2026-10-01")) == nil)
  }
}
