/// Where a stored row's category came from, so `rules apply` knows what it may change.
///
/// Stored as a small integer in `expense.categorySource` (SQLite stores 0 and 1 in no bytes at
/// all, the others in one): a decision made by a person or by the bank is never overridden by a
/// rule; a rule's decision or an empty category is.
public enum CategorySource: Int, Sendable, Codable, CaseIterable {
  /// No category.
  case none = 0
  /// The file's own category column.
  case file = 1
  /// A rule, at import or by `rules apply`.
  case rule = 2
  /// Typed by hand (`add --category`, `edit --category`).
  case hand = 3
  /// Matched at import with the other side of a move between the user's own accounts (the
  /// same amount out of one account and into another within a few days): both rows are
  /// `Transfers`, and `transfers unpair` gives each its category back.
  case transfer = 4

  /// True when `rules apply` may re-sort a row with this source.
  public var rulesMayChange: Bool { self == .none || self == .rule }
}
