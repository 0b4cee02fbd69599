import ExpenseCore
import ExpenseStore

/// Which tags each row has, for one read: the tag records and the rules they take read once.
/// A row has a tag when it was tagged by hand, or a rule of the tag matches it and `tag remove`
/// did not take it out.
public struct TagIndex: Sendable {
  struct Entry: Sendable {
    var name: String
    var added: Set<Int64>
    var removed: Set<Int64>
    var matcher: RuleMatcher?
  }

  let entries: [Entry]

  static let empty = TagIndex(entries: [])

  static func load(_ store: any LedgerStore) throws -> TagIndex {
    let tags = try TagRecords.load(store)
    guard !tags.isEmpty else { return .empty }
    let rules = Dictionary(try store.rules().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return TagIndex(
      entries: tags.values.map(\.body).sorted { $0.name < $1.name }.map { body in
        let taken = body.rules.compactMap { rules[$0] }
        return Entry(
          name: body.name, added: Set(body.added), removed: Set(body.removed),
          matcher: taken.isEmpty ? nil : RuleMatcher(rules: taken))
      })
  }

  public var isEmpty: Bool { entries.isEmpty }

  /// The tag `raw` names, as kept (`ServiceError.tagNotFound` when the ledger has none such,
  /// `tagName` when it cannot be a tag): what `list --tag` and `?tag=` filter by.
  func known(_ raw: String) throws -> String {
    let name = try TagRecords.name(raw)
    guard entries.contains(where: { $0.name == name }) else { throw ServiceError.tagNotFound(name) }
    return name
  }
  var needsText: Bool { entries.contains { $0.matcher != nil } }

  /// The tags of row `id`, by name.
  public func tags(id: Int64?, description: String, account: String?) -> [String] {
    guard let id else { return [] }
    return entries.compactMap { entry in
      if entry.added.contains(id) { return entry.name }
      guard let matcher = entry.matcher, !entry.removed.contains(id),
        matcher.match(description: description, account: account) != nil
      else { return nil }
      return entry.name
    }
  }

  /// The tags of a streamed row (its texts read only when a tag takes a rule's matches).
  public func tags(_ row: ExpenseRow) -> [String] {
    guard !entries.isEmpty else { return [] }
    guard needsText else { return tags(id: row.id, description: "", account: nil) }
    return tags(
      id: row.id, description: ExpenseRow.string(row.description), account: row.account.map(ExpenseRow.string))
  }

  public func tags(_ expense: Expense) -> [String] {
    tags(id: expense.id, description: expense.description, account: expense.account)
  }

  /// Whether a streamed row has `tag`.
  public func row(_ row: ExpenseRow, has tag: String) -> Bool {
    guard let entry = entries.first(where: { $0.name == tag }), let id = row.id else { return false }
    if entry.added.contains(id) { return true }
    guard let matcher = entry.matcher, !entry.removed.contains(id) else { return false }
    return matcher.match(
      description: ExpenseRow.string(row.description), account: row.account.map(ExpenseRow.string)) != nil
  }
}
