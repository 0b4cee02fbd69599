import ExpenseCore
import Foundation

/// A categorization rule: rows whose field contains `pattern` (case-insensitive) get `category`.
public struct CategoryRule: Hashable, Sendable, Codable {
  /// Which text of a row a rule looks at.
  public enum Field: String, Sendable, Codable, CaseIterable {
    case description, account
  }
  public var id: Int64
  public var pattern: String
  public var category: String
  public var field: Field

  public init(id: Int64, pattern: String, category: String, field: Field) {
    self.id = id
    self.pattern = pattern
    self.category = category
    self.field = field
  }
}
