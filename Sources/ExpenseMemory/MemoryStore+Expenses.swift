import ExpenseCore
import ExpenseStore

/// Expenses: read, added by hand, edited and deleted.
extension MemoryStore {
  public func expenses(month: Month?, category: String?, limit: Int?) throws -> [Expense] {
    try read { state in
      let rows = state.newestFirst.filter(state.selecting(month: month, category: category, from: nil, through: nil))
      return rows.prefix(max(0, limit ?? rows.count)).map(MemoryLedger.expense)
    }
  }

  public func expenses(from first: CivilDate?, through last: CivilDate?) throws -> [Expense] {
    try read { state in
      state.newestFirst.reversed().filter(state.selecting(month: nil, category: nil, from: first, through: last))
        .map(MemoryLedger.expense)
    }
  }

  public func withExpenseSnapshot<T>(_ body: (any ExpenseSnapshot) throws -> T) throws -> T {
    try consistently { try body(Snapshot(state: state)) }
  }

  /// One state's rows, read as often as asked.
  struct Snapshot: ExpenseSnapshot {
    let state: MemoryLedger

    func forEachExpense(_ query: ExpenseQuery, _ body: (ExpenseRow) throws -> Void) throws {
      var rows = state.newestFirst.filter(
        state.selecting(month: query.month, category: query.category, from: query.from, through: query.through))
      if query.order == .oldestFirst { rows.reverse() }
      for row in rows { try ExpenseRow.withRow(of: MemoryLedger.expense(row), body) }
    }
  }

  public func expenseCount(month: Month?) throws -> Int {
    try read { state in
      guard let month else { return state.rows.count }
      return state.rows.values.lazy.filter { $0.date.calendarMonth == month }.count
    }
  }

  /// Keyset pages on the row key, newest key first, with the other stores' cursors.
  public func expensePage(month: Month?, category: String?, after cursor: String?, limit: Int) throws -> ExpensePage {
    let after = try ExpensePage.key(of: cursor)
    let size = max(0, limit)
    return try read { state in
      let selected = state.selecting(month: month, category: category, from: nil, through: nil)
      let rows = state.rows.values
        .filter { row in after.map { row.key < $0 } ?? true && selected(row) }
        .sorted { $0.key > $1.key }
      let page = rows.prefix(size)
      let next = rows.count > size ? page.last.map { ExpensePage.cursor(afterKey: $0.key) } : nil
      return ExpensePage(expenses: page.map(MemoryLedger.expense), nextCursor: next)
    }
  }

  public func expense(id: Int64) throws -> Expense? {
    try read { state in state.row(id: id).map(MemoryLedger.expense) }
  }

  public func addExpense(_ expense: Expense) throws -> Expense {
    guard expense.date.isSupported else { throw CoreError.dateOutOfRange(expense.date.description) }
    return try write { state in
      var names = state.categoryNames
      var stored = expense
      stored.category = names.canonical(expense.category)
      let id = state.nextExpenseID
      state.nextExpenseID += 1
      let key = try ExpenseKey.free(on: stored.date, seed: id) { state.rows[$0] != nil }
      let source: CategorySource = stored.category == nil ? .none : stored.source == nil ? .hand : .file
      state.insert(
        StoredExpense(
          key: key, id: id, date: stored.date, amount: stored.amount, description: stored.description,
          category: stored.category, account: stored.account, sourceFile: stored.source?.file,
          sourceLine: stored.source.map { Int64($0.line) }, categorySource: source.rawValue))
      stored.id = id
      stored.categorySource = source
      return stored
    }
  }

  public func editExpense(id: Int64, _ change: ExpenseEdit) throws -> Expense {
    if let date = change.date, !date.isSupported { throw CoreError.dateOutOfRange(date.description) }
    return try write { state in
      guard let old = state.row(id: id) else { throw StoreError.expenseNotFound([id]) }
      let expense = MemoryLedger.expense(old)
      if change.movesOrResizes(expense), let parts = state.splitParts(of: id) {
        throw StoreError.splitPart(id: id, parts: parts, change: .amountOrDate)
      }
      var names = state.categoryNames
      let oldSource = CategorySource(rawValue: old.categorySource) ?? CategorySource.none
      var (new, source) = change.applied(to: expense, source: oldSource, names: &names)
      let key = new.date == old.date ? old.key : try ExpenseKey.free(on: new.date, seed: id) { state.rows[$0] != nil }
      state.rows[old.key] = nil
      state.insert(
        StoredExpense(
          key: key, id: id, date: new.date, amount: new.amount, description: new.description,
          category: new.category, account: new.account, sourceFile: old.sourceFile, sourceLine: old.sourceLine,
          categorySource: source.rawValue))
      new.categorySource = source
      return new
    }
  }

  public func deleteExpenses(ids: [Int64], wholeSplits: Bool) throws -> [Expense] {
    try write { state in
      var seen = Set<Int64>()
      let missing = ids.filter { seen.insert($0).inserted && state.row(id: $0) == nil }
      if !missing.isEmpty { throw StoreError.expenseNotFound(missing) }
      let going = try SplitSets.deletion(of: ids, wholeSplits: wholeSplits) { state.splitParts(of: $0) }
      state.dissolvePairs(of: Set(going))
      return going.compactMap { state.remove(id: $0) }.map(MemoryLedger.expense)
    }
  }
}
