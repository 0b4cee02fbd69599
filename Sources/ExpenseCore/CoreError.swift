import Foundation

/// Errors of the domain layer: values a user typed that do not make sense.
public enum CoreError: Error, Equatable, Sendable {
  /// The code is not an ISO 4217 currency.
  case unknownCurrency(String)
  /// The amount is not a plain decimal number (`12.34`, `-5`, `1000`). The message's examples
  /// are unsigned: the command line refuses a negative number (money in is written with `+`).
  case invalidAmount(String)
  /// The amount has more decimals than the currency allows (`12.345` for USD).
  case tooManyDecimals(String, Currency)
  /// The amount does not fit in 64-bit minor units.
  case amountOutOfRange(String)
  /// The month is not `YYYY-MM` with a month from 01 to 12.
  case invalidMonth(String)
  /// The date is not a real calendar date in `YYYY-MM-DD` form.
  case invalidDate(String)
  /// The month is well formed but outside `Month.supportedRange` (`0999-05`).
  case monthOutOfRange(String)
  /// The date is real but outside `CivilDate.supportedRange` (`0001-01-01`).
  case dateOutOfRange(String)
  /// A budget must be zero or more.
  case negativeBudget(String)
  /// Amounts in different currencies were combined.
  case currencyMismatch(Currency, Currency)
}

extension CoreError: CustomStringConvertible, LocalizedError {
  public var description: String {
    switch self {
    case .unknownCurrency(let raw):
      return "unknown currency '\(raw)': use an ISO 4217 code such as USD, EUR, GBP or JPY"
    case .invalidAmount(let raw):
      return "invalid amount '\(raw)': write a plain number such as 12.34 or 1000"
    case .tooManyDecimals(let raw, let currency):
      return
        "amount '\(raw)' has more decimals than \(currency.code) allows (\(currency.minorUnits))"
    case .amountOutOfRange(let raw):
      return "amount '\(raw)' is too large"
    case .invalidMonth(let raw):
      return "invalid month '\(raw)': expected YYYY-MM, e.g. 2026-10"
    case .invalidDate(let raw):
      return "invalid date '\(raw)': expected a real date as YYYY-MM-DD, e.g. 2026-10-20"
    case .monthOutOfRange(let raw):
      return
        "month '\(raw)' is outside the supported range: give a month from \(Month.supportedRange.lowerBound) through \(Month.supportedRange.upperBound)"
    case .dateOutOfRange(let raw):
      return
        "date '\(raw)' is outside the supported range: give a date from \(CivilDate.supportedRange.lowerBound) through \(CivilDate.supportedRange.upperBound)"
    case .negativeBudget(let raw):
      return "a budget cannot be negative ('\(raw)'): give 0 or more"
    case .currencyMismatch(let a, let b):
      return "cannot combine \(a.code) and \(b.code) amounts"
    }
  }

  public var errorDescription: String? { description }
}
