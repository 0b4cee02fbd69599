import ExpenseCore

/// The one JSON object of an expense, wherever one is printed or served: `list --format json`,
/// `add --format json`, the report's `expenses` and the HTTP API's `Expense` (which leaves out
/// what is null). `id`, `date`, `amountMinor` (signed minor units, negative = out), `currency`,
/// `description`, `category` and `account` (null when none), the source as `sourceFile` and
/// `sourceLine`, and as `source` (`{file, line}` or null): both spellings stay, because scripts
/// read each. `tags`, by name, only when the row has some; `transferWith`, the id of the other
/// side of a transfer pair, only when the row is in one.
public struct ExpenseResource: Encodable, Sendable {
  public var expense: Expense

  public init(_ expense: Expense) { self.expense = expense }

  enum Keys: String, CodingKey {
    case id, date, amountMinor, currency, description, category, account, source, sourceFile, sourceLine
    case tags, transferWith
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(expense.id, forKey: .id)
    try c.encode(expense.date, forKey: .date)
    try c.encode(expense.amount.minor, forKey: .amountMinor)
    try c.encode(expense.amount.currency, forKey: .currency)
    try c.encode(expense.description, forKey: .description)
    try c.encode(expense.category, forKey: .category)
    try c.encode(expense.account, forKey: .account)
    try c.encode(expense.source, forKey: .source)
    try c.encode(expense.source?.file, forKey: .sourceFile)
    try c.encode(expense.source?.line, forKey: .sourceLine)
    if !expense.tags.isEmpty { try c.encode(expense.tags, forKey: .tags) }
    try c.encodeIfPresent(expense.transferWith, forKey: .transferWith)
  }

  /// A list of expenses as one JSON array (`[]` when empty).
  public static func json(_ expenses: [Expense]) -> String {
    if expenses.isEmpty { return "[]" }  // JSONEncoder's pretty form of an empty array is "[\n\n]"
    return (try? SafeJSON.text(expenses.map(ExpenseResource.init))) ?? "[]"
  }
}
