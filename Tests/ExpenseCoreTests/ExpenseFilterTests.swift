import ExpenseCore
import Testing

/// The search's matching, by hand: case and accents folded on both sides, ASCII searched byte
/// by byte with the same answers as the folded path, amounts bounded in each row's currency.
@Suite struct ExpenseFilterTests {
  static func matches(
    _ filter: ExpenseFilter, _ description: String, _ minor: Int64 = -100, _ currency: Currency = .usd
  )
    -> Bool
  {
    ExpenseRow.withRow(
      of: Expense(
        date: CivilDate(year: 2026, month: 10, day: 1)!, amount: Money(minor: minor, currency: currency),
        description: description, category: "Dining out", account: "Checking")
    ) { filter.matches($0) }
  }

  @Test func textIsFoundWhateverItsCaseAndAccents() {
    let cafe = ExpenseFilter(text: "cafe")
    #expect(Self.matches(cafe, "CAFÉ MÜLLER"))
    #expect(Self.matches(cafe, "Le Café"))
    #expect(Self.matches(cafe, "CAFE 24"))
    #expect(!Self.matches(cafe, "CAF E"))
    #expect(Self.matches(ExpenseFilter(text: "MÜLLER"), "cafe muller"))
    #expect(Self.matches(ExpenseFilter(text: "dining"), "anything"), "the category is searched")
    #expect(Self.matches(ExpenseFilter(text: "check"), "anything"), "the account too")
    #expect(Self.matches(ExpenseFilter(text: "  "), "anything"), "blank text keeps every row")
    #expect(ExpenseFilter(text: "  ").isEmpty)
  }

  @Test func theByteSearchAgreesWithFoundationOnAscii() {
    var random = UInt64(7)
    let letters = Array("abcABC xyz*#")
    for _ in 0..<2_000 {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let length = Int(random >> 60) + 1
      var text = ""
      var needle = ""
      var state = random
      for index in 0..<(length * 3) {
        state = state &* 6_364_136_223_846_793_005 &+ 1
        let character = letters[Int(state >> 59) % letters.count]
        text.append(character)
        if index < length { needle.append(character) }
      }
      let filter = ExpenseFilter(text: String(needle.reversed()))
      let folded = ExpenseFilter.fold(text).contains(ExpenseFilter.fold(String(needle.reversed())))
      #expect(Self.matches(filter, text) == (folded || filter.text == nil), "\(text) / \(needle)")
    }
  }

  @Test func amountsAreBoundedInEachRowsCurrency() throws {
    let twenty = try #require(AmountBound("20"))
    #expect(Self.matches(ExpenseFilter(text: nil, min: twenty), "x", -2_000))
    #expect(!Self.matches(ExpenseFilter(text: nil, min: twenty), "x", -1_999))
    #expect(Self.matches(ExpenseFilter(text: nil, min: twenty), "refund", 2_500), "money in counts by its size")
    #expect(!Self.matches(ExpenseFilter(text: nil, min: twenty), "x", -19, .jpy), "19 yen is less than 20")
    let half = try #require(AmountBound("12.5"))
    #expect(Self.matches(ExpenseFilter(text: nil, max: half), "x", -1_250))
    #expect(!Self.matches(ExpenseFilter(text: nil, max: half), "x", -1_251))
    #expect(AmountBound("-5") == nil && AmountBound("1.") == nil && AmountBound("abc") == nil)
    #expect(AmountBound("0.0000000001") == nil, "at most 9 decimals")
    let largest = try #require(AmountBound("999999999999999.999999999"), "the API's largest bound")
    #expect(Self.matches(ExpenseFilter(text: nil, max: largest), "x", -100))
    // Int64's largest amount is about 92 quadrillion dollars: more than the bound, and no trap.
    #expect(!Self.matches(ExpenseFilter(text: nil, max: largest), "x", Int64.min + 1))
  }

  @Test func theMatcherKeepsTheFiltersAnswersOverRepeatedTexts() {
    let texts = ["CAFÉ MÜLLER", "Straße", "café", "Ñandú", "CAFE", "Zürich", "ｃａｆｅ"]
    for needle in ["cafe", "strasse", "nandu", "zur", "x"] {
      let filter = ExpenseFilter(text: needle)
      var matcher = ExpenseMatcher(filter)
      for round in 0..<3 {
        for text in texts {
          let row = Expense(
            date: CivilDate(year: 2026, month: 10, day: 1)!, amount: Money(minor: -1, currency: .usd), description: text
          )
          let expected = ExpenseRow.withRow(of: row) { filter.matches($0) }
          #expect(ExpenseRow.withRow(of: row) { matcher.matches($0) } == expected, "\(needle) \(text) round \(round)")
        }
      }
    }
  }
}
