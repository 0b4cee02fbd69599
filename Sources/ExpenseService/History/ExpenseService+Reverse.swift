import ExpenseCore
import ExpenseStore
import Foundation

/// How each kind of effect is checked and reversed: the state must still be the change's
/// "after", else the undo is refused naming what differs; then the "before" is put back.
extension ExpenseService {
  /// Reverses `effect` of change `change`; returns the inverse effect (what the undo did, so
  /// it can be undone in turn) and one line per thing changed back.
  func reverse(_ effect: ChangeEffect, change: Int64) throws -> (ChangeEffect?, [String]) {
    switch effect {
    case .rows(let before, let after):
      try putBack(before, over: after, change: change)
      return (.rows(before: after, after: before), History.rowLines(before: after, after: before))

    case .importedFile(let file, let at):
      guard let record = try store.imports().last(where: { $0.file == file && $0.importedAt == at }) else {
        throw ServiceError.undoConflict(change, what: ["the import of \(file) was removed since"])
      }
      // Its rows categorized by hand since were changed since: refused, naming them.
      let removal = try removingImport(record)
      if !removal.handEdited.isEmpty {
        throw ServiceError.undoConflict(
          change, what: removal.handEdited.map { "expense \($0) was edited by hand since" })
      }
      return (removal.effect, ["import #\(record.id) (\(record.file)): \(removal.removed) rows removed"])

    case .imported(let id):
      // An undone removal made again: the rows go as the removal took them, edited ones too.
      guard let record = try store.imports().first(where: { $0.id == id }) else {
        throw ServiceError.undoConflict(change, what: ["import #\(id) was removed since"])
      }
      let removal = try removingImport(record)
      return (removal.effect, ["import #\(id) (\(record.file)): \(removal.removed) rows removed"])

    case .importRemoved(let record, let before, let after, let balances):
      try putBack(
        RowSnapshot(rows: before.rows, pairs: before.pairs, imports: [record]), over: after, change: change)
      for record in balances { try store.restoreRecord(record) }
      return (.imported(id: record.id), ["import #\(record.id) (\(record.file)): \(before.rows.count) rows back"])

    case .budgets(let category, let before, let after):
      let now = try budgetState(category, currencies: Set(after.currencies))
      guard now == after else { throw ServiceError.undoConflict(change, what: ["the budget of '\(category)'"]) }
      try restore(before, category: category, over: now)
      return (.budgets(category: category, before: after, after: before), [History.budgetLine(category, before)])

    case .kind(let category, let before, let after):
      let now = try kind(of: category)
      guard now == after else { throw ServiceError.undoConflict(change, what: ["the kind of '\(category)'"]) }
      if let before {
        try store.setCategoryKind(category, kind: before)
      } else if let stored = try store.categoryKinds().keys.first(where: {
        CategoryName.key($0) == CategoryName.key(category)
      }) {
        try store.removeCategoryKind(stored)
      }
      let shown = (before ?? History.defaultKind(category)).rawValue
      return (.kind(category: category, before: after, after: before), ["\(category): kind \(shown)"])

    case .rule(let id, let before, let after):
      let now = try store.rules().first { $0.id == id }
      guard now == after else { throw ServiceError.undoConflict(change, what: ["rule \(id)"]) }
      if let before {
        _ = try store.putRule(id: id, pattern: before.pattern, category: before.category, field: before.field)
      } else if now != nil {
        try store.removeRule(id: id)
      }
      let line = before.map { "rule \(id): '\($0.pattern)' → \($0.category)" } ?? "rule \(id) removed"
      return (.rule(id: id, before: after, after: before), [line])

    case .settings(let before, let after):
      for (key, value) in after.sorted(by: { $0.key < $1.key }) where try store.setting(key) != value {
        throw ServiceError.undoConflict(change, what: ["the setting \(key)"])
      }
      for (key, value) in before.sorted(by: { $0.key < $1.key }) {
        if let value { try store.setSetting(key, value) } else { try store.removeSetting(key) }
      }
      return (.settings(before: after, after: before), [])

    case .group(let effects):
      var inverses: [ChangeEffect] = []
      var lines: [String] = []
      var kept = true
      for effect in effects.reversed() {
        let (inverse, more) = try reverse(effect, change: change)
        if let inverse { inverses.append(inverse) } else { kept = false }
        lines += more
      }
      return (kept ? .group(inverses) : nil, lines)

    case .records(let kind, let added, let removed):
      for record in added where try store.record(kind: kind, id: record.id) != record {
        throw ServiceError.undoConflict(change, what: ["\(History.recordName(kind)) #\(record.id)"])
      }
      for record in added { _ = try store.removeRecord(kind: kind, id: record.id) }
      for record in removed { try store.restoreRecord(record) }
      let lines =
        added.map { "\(History.recordName(kind)) #\($0.id) removed" }
        + removed.map { "\(History.recordName(kind)) #\($0.id) back" }
      return (.records(kind: kind, added: removed, removed: added), lines)
    }
  }

  /// Checks the rows are still `after`, takes them out and puts `before` back.
  private func putBack(_ before: RowSnapshot, over after: RowSnapshot, change: Int64) throws {
    let now = try store.rowSnapshot(ids: before.ids + after.ids)
    let changed = History.differences(now, after)
    if !changed.isEmpty { throw ServiceError.undoConflict(change, what: changed.map { "expense \($0)" }) }
    if !after.rows.isEmpty { _ = try store.deleteExpenses(ids: after.ids, wholeSplits: true) }
    if !before.rows.isEmpty || !before.imports.isEmpty { try store.restoreRows(before) }
  }

  /// Removes import `record`'s rows and balances, and says how to put them back.
  /// An import of more rows than the history keeps for one change is removed without a
  /// snapshot (nil effect: listed, not undoable), so its removal costs what it did before.
  func removingImport(_ record: ImportRecord) throws -> (
    effect: ChangeEffect?, removed: Int, handEdited: [Int64]
  ) {
    let range = record.firstId <= record.lastId ? record.firstId...record.lastId : 1...0
    let span = Int(clamping: Int128(range.upperBound) - Int128(range.lowerBound) + 1)
    let hand = CategorySource.hand
    guard span <= History.changeRowLimit else {
      let handEdited = try store.expenses(from: record.firstDate, through: record.lastDate).filter {
        guard let id = $0.id else { return false }
        return range.contains(id) && $0.categorySource == hand
      }.compactMap(\.id).sorted()
      let removed = try store.removeImport(id: record.id)
      try StatementBalances.remove(record, from: store)
      return (nil, removed, handEdited)
    }
    let before = try store.rowSnapshot(ids: Array(range))
    let handEdited = before.rows.filter {
      range.contains($0.row.id) && $0.row.categorySource == hand.rawValue
    }.map(\.row.id)
    let balances = try StatementBalances.stored(of: record, in: store)
    let removed = try store.removeImport(id: record.id)
    try StatementBalances.remove(record, from: store)
    let after = try store.rowSnapshot(ids: before.ids)
    return (.importRemoved(record: record, before: before, after: after, balances: balances), removed, handEdited)
  }

  /// One category's budgets and terms in `currencies` (and those of its budgets).
  func budgetState(_ category: String, currencies: Set<Currency>) throws -> BudgetState {
    let key = CategoryName.key(category)
    let budgets = try store.budgets().filter { CategoryName.key($0.category) == key }.sorted {
      ($0.amount.currency.code, $0.month?.description ?? "") < ($1.amount.currency.code, $1.month?.description ?? "")
    }
    var settings: [String: String] = [:]
    let covered = currencies.union(budgets.map(\.amount.currency))
    for currency in covered {
      let rollover = Rollovers.key(category: category, currency: currency)
      let mode = try store.setting(rollover) ?? "off"
      settings[rollover] = mode.hasPrefix("off") ? "off" : mode
      let period = PeriodSettings.key(category: category, currency: currency)
      settings[period] = try store.setting(period) ?? BudgetPeriod.month.rawValue
    }
    return BudgetState(budgets: budgets, settings: settings, currencies: covered.sorted { $0.code < $1.code })
  }

  /// Makes the category's budgets and terms `state` again.
  private func restore(_ state: BudgetState, category: String, over now: BudgetState) throws {
    for budget in now.budgets {
      try store.removeBudget(category: budget.category, month: budget.month, currency: budget.amount.currency)
    }
    for budget in state.budgets { try store.saveBudget(budget) }
    for (key, value) in state.settings.sorted(by: { $0.key < $1.key }) where now.settings[key] != value {
      try store.setSetting(key, value)
    }
  }

  /// The kind stored for `category` in any spelling; nil when none is.
  func kind(of category: String) throws -> CategoryKind? {
    let key = CategoryName.key(category)
    return try store.categoryKinds().first { CategoryName.key($0.key) == key }?.value
  }
}

extension History {
  /// The ids whose rows differ between two snapshots (a pair made or dissolved counts for both sides).
  static func differences(_ now: RowSnapshot, _ expected: RowSnapshot) -> [Int64] {
    var ids = Set<Int64>()
    let nowRows = Dictionary(now.rows.map { ($0.row.id, $0) }, uniquingKeysWith: { first, _ in first })
    let expectedRows = Dictionary(expected.rows.map { ($0.row.id, $0) }, uniquingKeysWith: { first, _ in first })
    for id in Set(nowRows.keys).union(expectedRows.keys) where nowRows[id] != expectedRows[id] { ids.insert(id) }
    let nowPairs = Set(now.pairs)
    let expectedPairs = Set(expected.pairs)
    for pair in nowPairs.symmetricDifference(expectedPairs) {
      ids.insert(pair.outId)
      ids.insert(pair.inId)
    }
    return ids.sorted()
  }

  /// What putting `after` in place of `before` does, one line per row.
  static func rowLines(before: RowSnapshot, after: RowSnapshot) -> [String] {
    var lines: [String] = []
    let old = Dictionary(before.rows.map { ($0.row.id, $0.row) }, uniquingKeysWith: { first, _ in first })
    let new = Dictionary(after.rows.map { ($0.row.id, $0.row) }, uniquingKeysWith: { first, _ in first })
    for id in Set(old.keys).union(new.keys).sorted() {
      switch (old[id], new[id]) {
      case (nil, let row?): lines.append("expense \(id) back: \(describe(row))")
      case (let row?, nil): lines.append("expense \(id) removed: \(describe(row))")
      case (let was?, let row?) where was != row:
        lines.append("expense \(id): " + fieldChanges(was, row).joined(separator: ", "))
      default: break
      }
    }
    return lines
  }

  /// A row in a few words: date, amount, description, category.
  static func describe(_ row: StoredExpense) -> String {
    "\(row.date) \(row.amount.formatted) \(row.description)" + (row.category.map { " (\($0))" } ?? "")
  }

  /// "category Groceries → Dining out", one per field that differs.
  static func fieldChanges(_ was: StoredExpense, _ row: StoredExpense) -> [String] {
    var changes: [String] = []
    if was.date != row.date { changes.append("date \(was.date) → \(row.date)") }
    if was.amount != row.amount { changes.append("amount \(was.amount.formatted) → \(row.amount.formatted)") }
    if was.description != row.description { changes.append("description \(was.description) → \(row.description)") }
    if was.category != row.category {
      changes.append("category \(was.category ?? uncategorizedName) → \(row.category ?? uncategorizedName)")
    }
    if was.account != row.account { changes.append("account \(was.account ?? "none") → \(row.account ?? "none")") }
    return changes.isEmpty ? ["as it was"] : changes
  }

  /// `state` read over more currencies: one with no budget there reads as never set (a budget
  /// removed sets its terms back to `off` and `month`).
  static func widened(_ state: BudgetState, to currencies: [Currency], category: String) -> BudgetState {
    var state = state
    for currency in currencies where !state.currencies.contains(currency) {
      state.settings[Rollovers.key(category: category, currency: currency)] = "off"
      state.settings[PeriodSettings.key(category: category, currency: currency)] = BudgetPeriod.month.rawValue
      state.currencies.append(currency)
    }
    state.currencies.sort { $0.code < $1.code }
    return state
  }

  static func budgetLine(_ category: String, _ state: BudgetState) -> String {
    if state.budgets.isEmpty { return "'\(category)': no budget" }
    let amounts = state.budgets.map { ($0.month.map { "\($0): " } ?? "") + $0.amount.formatted }
    return "'\(category)': budget " + amounts.joined(separator: ", ")
  }

  /// The kind a category has when none is stored.
  static func defaultKind(_ category: String) -> CategoryKind {
    CategoryName.key(category) == CategoryName.key(transfersName) ? .transfer : .expense
  }

  /// A budget move in words: "$50.00 USD from Dining out to Groceries in 2026-11".
  static func moveWords(_ move: BudgetMove) -> String {
    let amount = Money(minor: move.amountMinor, currency: move.currency).formatted
    return "\(amount) from \(move.from) to \(move.to) in \(move.month)"
  }

  /// A record kind as a person says it.
  static func recordName(_ kind: String) -> String {
    switch kind {
    case Goals.records.name: return "goal"
    case BudgetMoves.records.name: return "budget move"
    case StatementBalances.records.name: return "confirmed balance"
    case RecurringRecords.records.name: return "recurring series"
    default: return kind
    }
  }
}
