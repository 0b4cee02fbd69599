import TestSupport
import Testing

@testable import ExpenseCore

/// The detector's rules by hand: each interval found from its evidence, a payment early or late
/// matched to its due date, a series that stopped, and what is not a series.
@Suite struct RecurringDetectorTests {
  static func day(_ raw: String) -> CivilDate { (try? CivilDate.parse(raw)) ?? CivilDate.supportedRange.lowerBound }

  static func payments(_ description: String, _ rows: [(String, Int64)]) -> [RecurringPayment] {
    rows.enumerated().map { index, row in
      RecurringPayment(
        id: Int64(index + 1), date: day(row.0), amountMinor: row.1, currency: .usd, description: description,
        category: "Bills")
    }
  }

  @Test func aYearlyPaymentIsASeriesFromItsThirdYear() {
    let detector = RecurringDetector(today: Self.day("2026-11-20"))
    let two = Self.payments("ACME INSURANCE", [("2025-07-10", 48_000), ("2026-07-12", 48_000)])
    #expect(detector.detect(two).isEmpty, "two payments are not yet a series")
    let three = Self.payments(
      "ACME INSURANCE", [("2024-07-08", 45_000), ("2025-07-10", 48_000), ("2026-07-12", 48_000)])
    let found = detector.detect(three)
    #expect(found.map(\.interval) == [.yearly])
    #expect(found.first?.next == Self.day("2027-07-10") && found.first?.amountMinor == 48_000)
  }

  @Test func anEarlyPaymentPaysItsDueDateNotTheMonthItFellIn() {
    let detector = RecurringDetector(today: Self.day("2026-03-20"))
    let rent = Self.payments(
      "RENT", [("2025-12-01", 150_000), ("2026-01-01", 150_000), ("2026-01-28", 150_000), ("2026-03-02", 150_000)])
    let series = detector.detect(rent)
    #expect(series.count == 1)
    #expect(
      series.first?.payments.map(\.due) == ["2025-12-01", "2026-01-01", "2026-02-01", "2026-03-01"].map(Self.day))
    // January has two payments but February's due date was paid: nothing is due or late.
    let january = series.first?.dues(in: Month(year: 2026, month: 1)!, today: Self.day("2026-03-20"))
    #expect(january?.map(\.status) == [.paid])
    let february = series.first?.dues(in: Month(year: 2026, month: 2)!, today: Self.day("2026-03-20"))
    #expect(february?.first?.paidOn == Self.day("2026-01-28"))
  }

  @Test func aSeriesWithTwoDueDatesUnpaidHasStopped() {
    let rows = [("2026-05-15", Int64(999)), ("2026-06-15", 999), ("2026-07-15", 999)]
    let stopped = RecurringDetector(today: Self.day("2026-09-20")).detect(Self.payments("STREAM", rows))
    #expect(stopped.first?.stopped == true)
    let late = RecurringDetector(today: Self.day("2026-08-20")).detect(Self.payments("STREAM", rows))
    #expect(late.first?.stopped == false)
    #expect(late.first?.dues(in: Month(year: 2026, month: 8)!, today: Self.day("2026-08-20")).map(\.status) == [.late])
  }

  @Test func irregularPaymentsAreNoSeries() {
    let detector = RecurringDetector(today: Self.day("2026-11-20"))
    // A shop visited about monthly on any day: dates too far from one day of the month.
    let cafe = Self.payments(
      "CORNER CAFE", [("2026-06-03", 1_200), ("2026-07-19", 900), ("2026-08-11", 1_500), ("2026-09-27", 700)])
    #expect(detector.detect(cafe).isEmpty)
    // Monthly on the day, but any amount: more than twice the smallest is no band.
    let shop = Self.payments(
      "HARDWARE", [("2026-06-05", 2_000), ("2026-07-05", 9_000), ("2026-08-05", 3_000), ("2026-09-05", 2_500)])
    #expect(detector.detect(shop).isEmpty)
    // Several a week: no due date holds one payment.
    let groceries = Self.payments(
      "GROCER", (1...20).map { ("2026-10-\($0 < 10 ? "0" : "")\($0)", Int64(3_000 + $0)) })
    #expect(detector.detect(groceries).isEmpty)
  }

  @Test func weeklyAndQuarterlyAreTheirOwnIntervals() {
    let detector = RecurringDetector(today: Self.day("2026-11-20"))
    let gym = Self.payments("GYM", [("2026-10-05", 1_200), ("2026-10-12", 1_200), ("2026-10-20", 1_200)])
    #expect(detector.detect(gym).first?.interval == .weekly, "a Tuesday's debit is still Monday's due date")
    let water = Self.payments("WATER", [("2026-02-05", 9_000), ("2026-05-06", 11_000), ("2026-08-04", 8_000)])
    let quarterly = detector.detect(water).first
    #expect(quarterly?.interval == .quarterly && quarterly?.next == Self.day("2026-11-05"))
    #expect(quarterly?.lowMinor == 8_000 && quarterly?.highMinor == 11_000 && quarterly?.amountMinor == 8_000)
  }

  @Test func thePayeeIsTheDescriptionWithoutItsNumbers() {
    #expect(PayeeKey.of("POS 4417 STARBUCKS #10234 SEATTLE WA 11/03") == "pos starbucks seattle wa")
    #expect(
      PayeeKey.of("SEPA-LASTSCHRIFT MREF 2026-0931-77 Stadtwerke München") == "sepa lastschrift mref stadtwerke munchen"
    )
    #expect(PayeeKey.display("SPOTIFY P1160521") == "SPOTIFY")
    #expect(PayeeKey.display("12345") == "12345")
  }
}

/// The ASCII path of `PayeeKey.of` gives what Foundation's folding gives, on random texts.
@Suite struct PayeeKeyTests {
  @Test func theASCIIPathAgreesWithTheFoldedOne() {
    var generator = SeededRandom(state: 37)
    let alphabet = Array("AbcZ xy 09#/.-\t*&Qq")
    for _ in 0..<2_000 {
      let text = String(
        (0..<Int.random(in: 0...30, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? " " })
      #expect(PayeeKey.ascii(text.utf8) == PayeeKey.folded(text), "\(text)")
    }
  }
}
