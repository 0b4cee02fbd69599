import ExpenseCore
import Testing

@testable import ExpenseImport

/// Month names as banks in six languages print them, each month of the year.
@Suite struct MonthNameTests {
  static let months: [(language: String, names: [String])] = [
    ("English", ["Jan", "Feb", "Mar", "Apr", "May", "June", "July", "Aug", "Sept", "Oct", "Nov", "Dec"]),
    ("German", ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sep.", "Okt.", "Nov.", "Dez."]),
    ("Dutch", ["jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec"]),
    ("French", ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."]),
    ("Spanish", ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"]),
    ("Italian", ["gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"]),
  ]

  @Test(arguments: months.map(\.language))
  func everyMonthReads(_ language: String) throws {
    let names = try #require(Self.months.first { $0.language == language }?.names)
    let format = DateFormat(order: .dmy)
    for (index, name) in names.enumerated() {
      let expected = CivilDate(year: 2026, month: index + 1, day: 13)
      #expect(format.date("13 \(name) 2026") == expected, "\(language): \(name)")
      #expect(format.date("13-\(name.uppercased())-26") == expected, "\(language): \(name) upper case, two-digit year")
    }
  }

  @Test func unknownWordsAreNotMonths() {
    let format = DateFormat(order: .dmy)
    #expect(format.date("13 Varaus 2026") == nil)
    #expect(format.date("13 xyz 2026") == nil)
  }
}
