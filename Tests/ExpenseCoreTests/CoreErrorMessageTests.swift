import ExpenseCore
import Foundation
import Testing

/// Every message of `CoreError`, pinned (values a user typed: the message says what to type
/// instead). `name(of:)` is an exhaustive switch, so a new case must be pinned here.
@Suite struct CoreErrorMessageTests {
  static let pinned: [(CoreError, String)] = [
    (.unknownCurrency("ABC"), "unknown currency 'ABC': use an ISO 4217 code such as USD, EUR, GBP or JPY"),
    (.invalidAmount("12,3x"), "invalid amount '12,3x': write a plain number such as 12.34 or 1000"),
    (.tooManyDecimals("1.234", .usd), "amount '1.234' has more decimals than USD allows (2)"),
    (.amountOutOfRange("1e30"), "amount '1e30' is too large"),
    (.invalidMonth("2026-13"), "invalid month '2026-13': expected YYYY-MM, e.g. 2026-10"),
    (.invalidDate("2026-02-30"), "invalid date '2026-02-30': expected a real date as YYYY-MM-DD, e.g. 2026-10-20"),
    (
      .monthOutOfRange("0999-05"),
      "month '0999-05' is outside the supported range: give a month from 1900-01 through 2999-12"
    ),
    (
      .dateOutOfRange("0001-01-01"),
      "date '0001-01-01' is outside the supported range: give a date from 1900-01-01 through 2999-12-31"
    ),
    (.negativeBudget("-5"), "a budget cannot be negative ('-5'): give 0 or more"),
    (.currencyMismatch(.usd, .eur), "cannot combine USD and EUR amounts"),
  ]

  static func name(of error: CoreError) -> String {
    switch error {
    case .unknownCurrency: return "unknownCurrency"
    case .invalidAmount: return "invalidAmount"
    case .tooManyDecimals: return "tooManyDecimals"
    case .amountOutOfRange: return "amountOutOfRange"
    case .invalidMonth: return "invalidMonth"
    case .invalidDate: return "invalidDate"
    case .monthOutOfRange: return "monthOutOfRange"
    case .dateOutOfRange: return "dateOutOfRange"
    case .negativeBudget: return "negativeBudget"
    case .currencyMismatch: return "currencyMismatch"
    }
  }

  @Test func everyCaseHasItsMessage() {
    for (error, message) in Self.pinned {
      #expect(error.description == message)
      #expect(error.localizedDescription == message, "LocalizedError gives the same text")
    }
    #expect(Set(Self.pinned.map { Self.name(of: $0.0) }).count == 10, "every case is pinned")
  }
}
