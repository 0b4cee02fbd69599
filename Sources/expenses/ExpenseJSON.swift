import ExpenseCore
import ExpenseRender
import Foundation

/// The `list --format json` contract: `id`, `date`, `amountMinor` (signed), `currency`,
/// `description`, `category`, `account` (null when none), `source` ({file, line} or null).
enum ExpenseJSON {
  struct Row: Encodable {
    var id: Int64?
    var date: String
    var amountMinor: Int64
    var currency: String
    var description: String
    var category: String?
    var account: String?
    var source: Expense.Source?

    enum CodingKeys: String, CodingKey { case id, date, amountMinor, currency, description, category, account, source }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(id, forKey: .id)
      try c.encode(date, forKey: .date)
      try c.encode(amountMinor, forKey: .amountMinor)
      try c.encode(currency, forKey: .currency)
      try c.encode(description, forKey: .description)
      try c.encode(category, forKey: .category)
      try c.encode(account, forKey: .account)
      try c.encode(source, forKey: .source)
    }
  }

  static func encode(_ expenses: [Expense]) -> String {
    if expenses.isEmpty { return "[]" }  // JSONEncoder's pretty form of an empty array is "[\n\n]"
    let rows = expenses.map {
      Row(
        id: $0.id, date: $0.date.description, amountMinor: $0.amount.minor, currency: $0.amount.currency.code,
        description: $0.description, category: $0.category, account: $0.account, source: $0.source)
    }
    return (try? SafeJSON.text(rows)) ?? "[]"
  }
}
