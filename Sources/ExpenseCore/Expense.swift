/// One transaction: a dated, signed amount with a description, as a bank statement lists it.
public struct Expense: Hashable, Sendable, Codable {
  /// Where a row came from: the file name and the 1-based physical line its record starts on.
  public struct Source: Hashable, Sendable, Codable {
    public var file: String
    public var line: Int
    public init(file: String, line: Int) {
      self.file = file
      self.line = line
    }
  }

  /// Database id; `nil` until stored.
  public var id: Int64?
  public var date: CivilDate
  /// Signed amount: negative is money out, positive money in (a refund, a salary).
  public var amount: Money
  public var description: String
  /// Category name, or `nil` when uncategorized.
  public var category: String?
  public var account: String?
  /// Where it was imported from; `nil` for rows added by hand.
  public var source: Source?
  /// Where the category came from (the file, a rule, by hand), when read from the store.
  public var categorySource: CategorySource?
  /// How the category was set, in words, for a row's details ("rule 3: description contains
  /// 'whole foods'"); filled by the service layer, which knows the rules, never stored.
  public var categorizedBy: String?
  /// The id of the other side of the transfer pair this row is in (see `TransferPair`);
  /// filled by the service for JSON, never stored with the row.
  public var transferWith: Int64?
  /// The row's tags (by hand, or a tag's rule matching it), by name; filled by the service for
  /// JSON and the journals, never stored with the row. Empty: none.
  public var tags: [String] = []

  public init(
    id: Int64? = nil, date: CivilDate, amount: Money, description: String, category: String? = nil,
    account: String? = nil, source: Source? = nil
  ) {
    self.id = id
    self.date = date
    self.amount = amount
    self.description = description
    self.category = category
    self.account = account
    self.source = source
  }
}

/// Whether a category is spending (the default), income (salary, interest) or a transfer
/// between one's own accounts (card payments, savings, top-ups).
public enum CategoryKind: String, Sendable, Codable, CaseIterable {
  /// Money going out; reported against budgets.
  case expense
  /// Money coming in; reported as income, never as negative spending.
  case income
  /// Money moved between one's own accounts: neither spending nor income.
  case transfer
}

/// The category the importer gives rows its built-in patterns recognise as moves between
/// one's own accounts (see `TransferPatterns`); its kind is `transfer` unless the user sets
/// another.
public let transfersName = "Transfers"

/// The name shown for expenses without a category.
public let uncategorizedName = "Uncategorized"

/// A monthly budget for one category in one currency.
///
/// A budget with `month == nil` is the default for every month; one with a month overrides the
/// default for that month only.
public struct Budget: Hashable, Sendable, Codable {
  public var category: String
  public var amount: Money
  public var month: Month?

  public init(category: String, amount: Money, month: Month? = nil) {
    self.category = category
    self.amount = amount
    self.month = month
  }
}

/// Sums of one category's transactions in one month and currency, as the store aggregates them.
public struct CategoryMonthTotal: Hashable, Sendable, Codable {
  public var currency: Currency
  /// `nil` for uncategorized transactions.
  public var category: String?
  public var month: Month
  /// Sum of the negative amounts, as a positive number of minor units.
  public var outflowMinor: Int64
  /// Sum of the positive amounts (refunds, income).
  public var inflowMinor: Int64
  /// Number of transactions.
  public var count: Int
  /// Number of those transactions that are money in (positive amounts); for uncategorized
  /// rows this is the "unsorted money in" count.
  public var inflowCount: Int
  /// Money out per day of the month (index 0 is the 1st), as positive minor units; `nil` when
  /// not loaded. Pace and projection read a category's usual shape of a month from it.
  public var dailyOutflowMinor: [Int64]?

  public init(
    currency: Currency, category: String?, month: Month, outflowMinor: Int64, inflowMinor: Int64,
    count: Int, inflowCount: Int = 0, dailyOutflowMinor: [Int64]? = nil
  ) {
    self.currency = currency
    self.category = category
    self.month = month
    self.outflowMinor = outflowMinor
    self.inflowMinor = inflowMinor
    self.count = count
    self.inflowCount = inflowCount
    self.dailyOutflowMinor = dailyOutflowMinor
  }

  /// Spending as the report counts it: outflows − inflows (a refund lowers it).
  public var spentMinor: Int64 { outflowMinor &- inflowMinor }
}
