import ExpenseCore
import PropertyBased
import Testing

/// The supported range of dates and months (1900-01-01 through 2999-12-31), enforced by the
/// parsers, and date arithmetic that no value can make trap.
@Suite struct SupportedRangeTests {
  @Test func theRangeIsStatedOnce() {
    #expect(CivilDate.supportedRange.lowerBound.description == "1900-01-01")
    #expect(CivilDate.supportedRange.upperBound.description == "2999-12-31")
    #expect(Month.supportedRange.lowerBound.description == "1900-01")
    #expect(Month.supportedRange.upperBound.description == "2999-12")
  }

  @Test func parsersAcceptTheEndsAndRefuseWhatIsOutside() throws {
    #expect(try CivilDate.parse("1900-01-01") == CivilDate.supportedRange.lowerBound)
    #expect(try CivilDate.parse("2999-12-31") == CivilDate.supportedRange.upperBound)
    #expect(try Month.parse("1900-01") == Month.supportedRange.lowerBound)
    #expect(try Month.parse("2999-12") == Month.supportedRange.upperBound)
    for raw in ["0001-01-01", "1899-12-31", "3000-01-01", "9999-12-31"] {
      #expect(throws: CoreError.dateOutOfRange(raw)) { try CivilDate.parse(raw) }
    }
    for raw in ["0001-01", "0999-05", "1899-12", "3000-01", "9999-12"] {
      #expect(throws: CoreError.monthOutOfRange(raw)) { try Month.parse(raw) }
    }
    #expect(throws: CoreError.invalidMonth("0000-00")) { try Month.parse("0000-00") }
    #expect(throws: CoreError.invalidDate("0000-01-01")) { try CivilDate.parse("0000-01-01") }
  }

  @Test func theMessageNamesTheValueAndTheRange() {
    #expect(
      CoreError.monthOutOfRange("0999-05").description
        == "month '0999-05' is outside the supported range: give a month from 1900-01 through 2999-12")
    #expect(
      CoreError.dateOutOfRange("0001-01-01").description
        == "date '0001-01-01' is outside the supported range: give a date from 1900-01-01 through 2999-12-31")
  }

  @Test func storedValuesOutsideTheRangeStayReadable() throws {
    #expect(try CivilDate.parseStored("0001-01-01").description == "0001-01-01")
    #expect(try Month.parseStored("0999-05").description == "0999-05")
    #expect(Month(year: 999, month: 5)?.description == "0999-05", "the year is always four digits")
  }

  @Test func aReportOnTheFirstMonthLooksBeforeIt() {
    let first = Month.supportedRange.lowerBound
    #expect(first.adding(months: -3).description == "1899-10")
    #expect(first.previous.firstDay.description == "1899-12-01")
    #expect(Month.supportedRange.upperBound.next.description == "3000-01")
  }

  @Test func arithmeticClampsAtTheEndsOfWhatIsRepresentable() throws {
    let first = try #require(Month(year: 1, month: 1))
    let last = try #require(Month(year: 9999, month: 12))
    #expect(first.adding(months: -1) == first)
    #expect(last.adding(months: 1) == last)
    #expect(first.adding(months: Int.min) == first)
    #expect(last.adding(months: Int.max) == last)
    #expect(CivilDate(daysSinceEpoch: Int.min).description == "0001-01-01")
    #expect(CivilDate(daysSinceEpoch: Int.max).description == "9999-12-31")
    #expect(CivilDate.supportedRange.upperBound.adding(days: Int.max).description == "9999-12-31")
    #expect(CivilDate.supportedRange.lowerBound.adding(days: Int.min).description == "0001-01-01")
    #expect(ExpenseKey(rawValue: Int64.min).date.year >= 1)
    #expect(ExpenseKey(rawValue: Int64.max).date.year <= 9999)
  }

  @Test func monthArithmeticNeverTraps() async {
    await propertyCheck(count: 2000, input: Gen.int(in: Int.min...Int.max), Gen.int(in: 1...9999)) { count, year in
      let start = Month(year: year, month: 1 + abs(count % 12)) ?? Month.supportedRange.lowerBound
      let moved = start.adding(months: count)
      #expect(Month.representableRange.contains(moved))
      #expect(moved.firstDay <= moved.lastDay)
      #expect((try? Month.parseStored(moved.description)) == moved)
    }
  }

  @Test func dayArithmeticNeverTraps() async {
    await propertyCheck(count: 2000, input: Gen.int(in: Int.min...Int.max), Gen.int(in: Int.min...Int.max)) {
      days, offset in
      let date = CivilDate(daysSinceEpoch: days)
      #expect(CivilDate.representableRange.contains(date))
      #expect(CivilDate.representableRange.contains(date.adding(days: offset)))
      #expect(date.calendarMonth.contains(date))
      let key = ExpenseKey(rawValue: Int64(truncatingIfNeeded: days) &* 7919 ^ Int64(truncatingIfNeeded: offset))
      #expect(CivilDate.representableRange.contains(key.date))
    }
  }

  @Test func theKeyHoldsEveryDayOfTheSupportedRange() {
    let range = CivilDate.supportedRange
    var wrong: [String] = []
    for days in range.lowerBound.daysSinceEpoch...range.upperBound.daysSinceEpoch {
      let date = CivilDate(daysSinceEpoch: days)
      if ExpenseKey(date: date, fingerprintHash: UInt64(bitPattern: Int64(days))).date != date {
        wrong.append(date.description)
      }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
  }
}
