import ExpenseCore
import ExpenseStore

/// Tags across categories: rows tagged by hand or by a rule's matches, listed and totalled,
/// with a budget over a span of days ("what did the trip cost").
extension ExpenseService {
  /// Every tag with its rows' totals, by name: one pass over the rows.
  public func tags() throws -> [TagSummary] {
    try store.consistently {
      let records = try TagRecords.load(store)
      guard !records.isEmpty else { return [] }
      let index = try TagIndex.load(store)
      var tallies: [String: TagTally] = [:]
      try store.withExpenseSnapshot { snapshot in
        try snapshot.forEachExpense(ExpenseQuery(order: .any)) { row in
          for tag in index.tags(row) {
            tallies[tag, default: TagTally()].add(row.amount, date: row.date, budget: records[tag]?.body.budget)
          }
        }
      }
      return records.keys.sorted().compactMap { name in
        records[name].map { (tallies[name] ?? TagTally()).summary($0.body) }
      }
    }
  }

  /// The tag `name` as `tags()` lists it (`ServiceError.tagNotFound` when there is none).
  public func tag(_ name: String) throws -> TagSummary {
    let name = try TagRecords.name(name)
    guard let found = try tags().first(where: { $0.name == name }) else { throw ServiceError.tagNotFound(name) }
    return found
  }

  /// Tags rows `ids` with `name` (made when new); every id must be a row's, or nothing changes.
  public func addTag(_ raw: String, to ids: [Int64]) throws -> TagSummary {
    let name = try TagRecords.name(raw)
    try recording("tag add") {
      try checkRowsExist(ids)
      let effect = try changeTag(name) { body in
        body.added = Array(Set(body.added).union(ids)).sorted()
        body.removed = body.removed.filter { !ids.contains($0) }
      }
      return ((), "tag add \(name) " + ids.map { "#\($0)" }.joined(separator: " "), effect)
    }
    return try tag(name)
  }

  /// Takes tag `name` off rows `ids` (off a rule's matches too); the tag stays, if empty.
  public func removeTag(_ raw: String, from ids: [Int64]) throws -> TagSummary {
    let name = try TagRecords.name(raw)
    try recording("tag remove") {
      guard try TagRecords.load(store)[name] != nil else { throw ServiceError.tagNotFound(name) }
      try checkRowsExist(ids)
      let effect = try changeTag(name) { body in
        body.added = body.added.filter { !ids.contains($0) }
        if !body.rules.isEmpty { body.removed = Array(Set(body.removed).union(ids)).sorted() }
      }
      return ((), "tag remove \(name) " + ids.map { "#\($0)" }.joined(separator: " "), effect)
    }
    return try tag(name)
  }

  /// Deletes tag `name`: its rows keep everything but the tag, its rules their categories.
  public func deleteTag(_ raw: String) throws -> TagSummary {
    let name = try TagRecords.name(raw)
    let before = try tag(name)
    try recording("tag delete") {
      guard let (id, _) = try TagRecords.load(store)[name],
        let record = try store.record(kind: TagRecords.records.name, id: id)
      else { throw ServiceError.tagNotFound(name) }
      _ = try store.removeRecord(kind: record.kind, id: id)
      return ((), "tag delete \(name)", .effect(.records(kind: record.kind, added: [], removed: [record])))
    }
    return before
  }

  /// Sets what tag `name` may spend from `from` through `to` (made when new).
  public func setTagBudget(_ raw: String, amountMinor: Int64, currency: Currency?, from: CivilDate, to: CivilDate)
    throws -> TagSummary
  {
    let name = try TagRecords.name(raw)
    guard amountMinor > 0 else { throw ServiceError.tagBudget("a tag's budget must be more than 0") }
    guard from <= to else { throw ServiceError.tagBudget("the budget's --from \(from) is after its --to \(to)") }
    try recording("tag budget") {
      let currency = try currency ?? store.defaultCurrency()
      let budget = TagBudget(amountMinor: amountMinor, currency: currency, from: from, to: to)
      let effect = try changeTag(name) { $0.budget = budget }
      let amount = Money(minor: amountMinor, currency: currency).formatted
      return ((), "tag budget \(name) \(amount) \(from) to \(to)", effect)
    }
    return try tag(name)
  }

  /// `setTagBudget` with the amount as typed.
  public func setTagBudget(_ raw: String, amount: String, currency code: String?, from: CivilDate, to: CivilDate)
    throws -> TagSummary
  {
    let currency = try code.map { code throws(CoreError) in try Currency.parse(code) } ?? store.defaultCurrency()
    let money = try Money.parse(amount, currency: currency)
    return try setTagBudget(raw, amountMinor: money.minor, currency: currency, from: from, to: to)
  }

  /// Makes tag `name` take rule `rule`'s matches, in the caller's transaction (`rules add --tag`).
  func tagRule(_ name: String, rule: Int64) throws -> ChangeEffect? {
    switch try changeTag(name, { body in if !body.rules.contains(rule) { body.rules.append(rule) } }) {
    case .effect(let effect): return effect
    default: return nil
    }
  }

  /// Changes (or makes) tag `name`'s record; the history's effect of it, or nil when nothing
  /// changed.
  private func changeTag(_ name: String, _ change: (inout TagRecords.Body) -> Void) throws -> History.Recorded? {
    let kind = TagRecords.records.name
    if let (id, body) = try TagRecords.load(store)[name], let record = try store.record(kind: kind, id: id) {
      var changed = body
      change(&changed)
      guard changed != body else { return nil }
      let replaced = StoredRecord(kind: kind, id: id, body: try TagRecords.records.encoded(changed))
      _ = try store.removeRecord(kind: kind, id: id)
      try store.restoreRecord(replaced)
      return .effect(.records(kind: kind, added: [replaced], removed: [record]))
    }
    var body = TagRecords.Body(name: name)
    change(&body)
    let record = try store.addRecord(kind: kind, body: try TagRecords.records.encoded(body))
    return .effect(.records(kind: kind, added: [record], removed: []))
  }

  /// Every id is a stored row's, else `StoreError.expenseNotFound` naming those that are not.
  private func checkRowsExist(_ ids: [Int64]) throws {
    let found = Set(try store.rowSnapshot(ids: ids).ids)
    let missing = ids.filter { !found.contains($0) }
    if !missing.isEmpty { throw StoreError.expenseNotFound(missing) }
  }
}
