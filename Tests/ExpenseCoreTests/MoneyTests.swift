import ExpenseCore
import PropertyBased
import Testing

@Suite struct MoneyTests {
  @Test(arguments: [
    ("12.34", "USD", Int64(1234)), ("-5", "USD", -500), ("+0.5", "USD", 50), ("1000", "USD", 100_000),
    ("1500", "JPY", 1500), ("1.250", "BHD", 1250), ("0.001", "BHD", 1), ("1.500", "USD", 150),
    ("  7.10 ", "EUR", 710),
  ])
  func parsesExactly(raw: String, code: String, minor: Int64) throws {
    let money = try Money.parse(raw, currency: #require(Currency(code: code)))
    #expect(money.minor == minor)
    #expect(money.currency.code == code)
  }

  @Test func rejectsMoreDecimalsThanTheCurrencyHas() {
    #expect(throws: CoreError.tooManyDecimals("12.345", .usd)) { try Money.parse("12.345", currency: .usd) }
    #expect(throws: CoreError.tooManyDecimals("1.5", .jpy)) { try Money.parse("1.5", currency: .jpy) }
  }

  @Test(arguments: ["", "-", "abc", "1,000", "1.2.3", "12e3", "--5", "."])
  func rejectsNonNumbers(raw: String) {
    #expect(throws: CoreError.self) { try Money.parse(raw, currency: .usd) }
  }

  @Test func rejectsOverflow() {
    #expect(throws: CoreError.amountOutOfRange("99999999999999999999")) {
      try Money.parse("99999999999999999999", currency: .usd)
    }
  }

  @Test func formatsForPeople() throws {
    #expect(Money(minor: 123_450, currency: .usd).formatted == "$1,234.50")
    #expect(Money(minor: -1840, currency: .usd).formatted == "-$18.40")
    #expect(Money(minor: 1500, currency: .jpy).formatted == "¥1,500")
    #expect(Money(minor: 1250, currency: try #require(Currency(code: "BHD"))).formatted == "BHD 1.250")
    #expect(Money(minor: 5, currency: .eur).formatted == "€0.05")
    #expect(Money(minor: 100_000_000_000_000, currency: .usd).formatted == "$1,000,000,000,000.00")
  }

  @Test func shortFormKeepsSmallAmountsExact() {
    #expect(Money.formatShort(minor: 999_999, currency: .usd) == "$9,999.99")
    #expect(Money.formatShort(minor: 1_234_567, currency: .usd) == "$12.3k")
    #expect(Money.formatShort(minor: -250_000_000, currency: .usd) == "-$2.5M")
  }

  /// The largest amounts an Int64 holds, in a currency without minor units, shorten without
  /// overflowing (the narrow `list` and report layouts use the short form).
  @Test func shortFormOfTheLargestAmountsDoesNotOverflow() {
    let yen = Money.formatShort(minor: .max, currency: .jpy)
    #expect(yen.hasSuffix("9223372T"), "\(yen)")
    #expect(Money.formatShort(minor: .min, currency: .jpy).hasPrefix("-"))
    #expect(Money.formatShort(minor: 1_950_000_000_000, currency: .jpy).hasSuffix("2.0T"), "rounds half up")
    #expect(Money.formatShort(minor: 1_950_000_000, currency: .jpy).hasSuffix("2.0B"))
    #expect(Money.formatShort(minor: 1_949_999_999, currency: .jpy).hasSuffix("1.9B"))
  }

  @Test func neverAddsTwoCurrencies() throws {
    let dollars = Money(minor: 100, currency: .usd)
    #expect(throws: CoreError.currencyMismatch(.usd, .eur)) { try dollars.adding(Money(minor: 1, currency: .eur)) }
    #expect(try dollars.adding(Money(minor: 250, currency: .usd)).minor == 350)
  }

  @Test func unknownCurrencyIsRejected() {
    #expect(Currency(code: "USX") == nil)
    #expect(Currency(code: "usd") == .usd)
    #expect(Currency(code: "KWD")?.minorUnits == 3)
    #expect(Currency(code: "KRW")?.minorUnits == 0)
  }

  @Test func decimalStringRoundTripsEveryAmount() async {
    let codes = ["USD", "JPY", "BHD", "EUR", "CLF"]
    await propertyCheck(count: 500, input: Gen.int64(in: Int64.min + 1...Int64.max), Gen.int(in: 0...4)) {
      minor, index in
      let currency = Currency(code: codes[index])!
      let money = Money(minor: minor, currency: currency)
      #expect((try? Money.parse(money.decimalString, currency: currency)) == money)
    }
  }
}

@Suite struct PercentTests {
  @Test func roundsHalfToEven() {
    #expect(Percent(part: 1, of: 8)?.tenths == 125)  // 12.5 exactly
    #expect(Percent(part: 1, of: 16)?.tenths == 62)  // 6.25 → 6.2 (even)
    #expect(Percent(part: 3, of: 16)?.tenths == 188)  // 18.75 → 18.8 (even)
    #expect(Percent(part: 1, of: 3)?.tenths == 333)
    #expect(Percent(part: -1, of: 16)?.tenths == -62)
    #expect(Percent(part: 5, of: 0) == nil)
  }

  @Test func printsWithoutTrailingZero() {
    #expect(Percent(tenths: 825).description == "82.5")
    #expect(Percent(tenths: 820).description == "82")
    #expect(Percent(tenths: -5).description == "-0.5")
    #expect(Percent(tenths: 1125).rounded == 112)
    #expect(Percent(tenths: 825).rounded == 82)  // 82.5 → 82 (even)
    #expect(Percent(tenths: 835).rounded == 84)
  }
}

@Suite struct CalendarTests {
  @Test func monthsParseStrictly() throws {
    #expect(try Month.parse("2026-10") == Month(year: 2026, month: 10))
    for bad in ["2026-13", "2026-00", "2026-1", "26-10", "2026/10", ""] {
      #expect(throws: CoreError.invalidMonth(bad)) { try Month.parse(bad) }
    }
  }

  @Test func monthArithmeticCrossesYears() throws {
    let january = try Month.parse("2026-01")
    #expect(january.previous.description == "2025-12")
    #expect(january.adding(months: -13).description == "2024-12")
    #expect(january.adding(months: 12).description == "2027-01")
  }

  @Test func leapYears() throws {
    #expect(try Month.parse("2024-02").dayCount == 29)
    #expect(try Month.parse("2026-02").dayCount == 28)
    #expect(try Month.parse("2000-02").dayCount == 29)
    #expect(try Month.parse("1900-02").dayCount == 28)
    #expect(throws: CoreError.self) { try CivilDate.parse("2026-02-29") }
    #expect(try CivilDate.parse("2024-02-29").day == 29)
  }

  @Test func daysSinceEpoch() throws {
    #expect(try CivilDate.parse("1970-01-01").daysSinceEpoch == 0)
    #expect(try CivilDate.parse("2000-03-01").daysSinceEpoch == 11017)
    // The inverse, day by day over four centuries (leap rules included), against a walk.
    var walk = try #require(CivilDate(year: 1899, month: 12, day: 31))
    var mismatches: [Int] = []
    for days in walk.daysSinceEpoch...(walk.daysSinceEpoch + 146_097) {
      if CivilDate(daysSinceEpoch: days) != walk { mismatches.append(days) }
      walk =
        CivilDate(year: walk.year, month: walk.month, day: walk.day + 1)
        ?? CivilDate(year: walk.year, month: walk.month + 1, day: 1)
        ?? CivilDate(year: walk.year + 1, month: 1, day: 1)!
    }
    #expect(mismatches.isEmpty)
    #expect(try CivilDate.parse("2026-02-28").adding(days: 1) == (try CivilDate.parse("2026-03-01")))
    #expect(try CivilDate.parse("2026-01-01").adding(days: -1) == (try CivilDate.parse("2025-12-31")))
  }

  /// Trimming returns a string that starts and ends with no blank unchanged, and agrees with a
  /// walk over the characters for any other (a combining mark makes a space no blank).
  @Test func trimmingASCIIWhitespaceAgreesWithACharacterWalk() {
    func walk(_ text: String) -> String {
      let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
      guard let start = text.firstIndex(where: { !blank($0) }), let end = text.lastIndex(where: { !blank($0) }) else {
        return ""
      }
      return String(text[start...end])
    }
    let pieces = ["", " ", "\t", "\r", "\n", "\r\n", "a", "1.5", "\u{301}", "é", "\u{A0}"]
    var state: UInt64 = 0x7819
    for _ in 0..<2000 {
      var text = ""
      for _ in 0..<Int(state >> 61) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        text += pieces[Int((state >> 33) % UInt64(pieces.count))]
      }
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      #expect(text.trimmingASCIIWhitespace() == walk(text), "\(Array(text.unicodeScalars))")
    }
  }
}
