import ExpenseCore
import ExpenseStore

extension ExpenseService {
  /// The settings `config` shows.
  public struct Settings: Sendable, Equatable {
    /// The database file (`nil` for a store that is a server).
    public var database: String?
    public var currency: Currency
    public var accordion: Bool
    public var profiles: [String]
  }

  public func settings() throws -> Settings {
    Settings(
      database: store.filePath, currency: try store.defaultCurrency(),
      accordion: try store.setting("accordion") == "on", profiles: try store.profileNames())
  }

  /// Sets the default currency (hand-added rows, files without a currency column).
  @discardableResult
  public func setDefaultCurrency(_ code: String) throws -> Currency {
    let currency = try Currency.parse(code)
    try store.setDefaultCurrency(currency)
    return currency
  }

  /// The import profiles saved with `--save-profile`.
  public func profileNames() throws -> [String] { try store.profileNames() }
}
