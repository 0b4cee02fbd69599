import ExpenseCore

/// What a CSV column means to the importer.
public enum ColumnRole: String, CaseIterable, Sendable, Codable {
  /// The transaction date.
  case date
  /// Payee, merchant or memo text (several columns are joined with ` / `).
  case description
  /// One signed amount (negative = money out unless `spending` is `.positive`).
  case amount
  /// Money out, unsigned (`Paid out`, `Soll`, `Withdrawals`).
  case debit
  /// Money in, unsigned (`Paid in`, `Haben`, `Deposits`).
  case credit
  /// A direction marker for an unsigned amount (`Af`/`Bij`, `D`/`C`, `DR`/`CR`, `Out`/`In`).
  case direction
  /// The bank's own category.
  case category
  /// An ISO 4217 code per row.
  case currency
  /// The account name or IBAN.
  case account
  /// Booking state; pending, declined, reverted, failed and cancelled rows are excluded.
  case status
  /// A fee charged on top of the amount (its magnitude is an extra outflow).
  case fee
  /// A column to ignore.
  case ignore = "-"
}
