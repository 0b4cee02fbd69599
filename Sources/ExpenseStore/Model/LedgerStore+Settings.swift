import ExpenseCore

/// What is kept as a setting, read and written the one way for every store: a store only keeps
/// the keys and values (`setting`, `setSetting`).
extension LedgerStore {
  /// The currency of amounts that name none: the `currency` setting, else US dollars.
  public func defaultCurrency() throws -> Currency {
    try setting("currency").flatMap { Currency(code: $0) } ?? .usd
  }

  public func setDefaultCurrency(_ currency: Currency) throws { try setSetting("currency", currency.code) }
}
