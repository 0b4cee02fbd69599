import ExpenseCore
import ExpenseStore

extension ExpenseService {
  /// Records one expense typed by hand. `amount` is typed as a person says it: what was spent,
  /// or money in with a leading '+' (see `signedMinor`); `currency` defaults to the store's.
  public func addExpense(
    date: CivilDate, amount: String, description: String, category: String?, account: String?,
    currency code: String?
  ) throws -> Expense {
    let currency = try code.map { code throws(CoreError) in try Currency.parse(code) } ?? store.defaultCurrency()
    let money = Money(minor: try ExpenseService.signedMinor(amount, currency: currency), currency: currency)
    return try addExpense(
      Expense(date: date, amount: money, description: description, category: category, account: account))
  }

  /// Stores `expense` (added by hand) as a change of the history.
  public func addExpense(_ expense: Expense) throws -> Expense {
    try recording("add") {
      let added = try store.addExpense(expense)
      let after = try store.rowSnapshot(ids: added.id.map { [$0] } ?? [])
      let summary = "add \(added.id ?? 0) " + (after.rows.first.map { History.describe($0.row) } ?? "")
      return (added, summary, .effect(.rows(before: RowSnapshot(), after: after)))
    }
  }

  /// A typed amount as stored: typed amounts are what was spent, stored ones are signed
  /// (negative = out), so '4.50' is -450 and '+25' is 2500.
  public static func signedMinor(_ text: String, currency: Currency) throws(CoreError) -> Int64 {
    let money = try Money.parse(text.hasPrefix("+") ? String(text.dropFirst()) : text, currency: currency)
    return text.hasPrefix("+") || text.hasPrefix("-") ? money.minor : -money.minor
  }

  /// Edits expense `id`; a typed `amount` is read in the expense's own currency.
  public func editExpense(
    id: Int64, date: CivilDate?, amount: String?, description: String?, category: String?, account: String?
  ) throws -> Expense {
    let stored = try expense(id: id)
    var change = ExpenseEdit(date: date, description: description, category: category, account: account)
    if let amount { change.amountMinor = try ExpenseService.signedMinor(amount, currency: stored.amount.currency) }
    return try editExpense(id: id, change)
  }

  /// Applies a change given in stored terms (the API's signed `amountMinor`), as a change of
  /// the history.
  public func editExpense(id: Int64, _ change: ExpenseEdit) throws -> Expense {
    try recording("edit") {
      let before = try store.rowSnapshot(ids: [id])
      let edited = try store.editExpense(id: id, change)
      let after = try store.rowSnapshot(ids: before.ids)
      let fields =
        before.row(id: id).flatMap { was in after.row(id: id).map { History.fieldChanges(was.row, $0.row) } } ?? []
      return (edited, "edit \(id) " + fields.joined(separator: ", "), .effect(.rows(before: before, after: after)))
    }
  }

  /// Deletes these expenses, all or none; returns them as they were. The parts of a split
  /// transaction go together: all named, or `wholeSplits` adds the ones not named; otherwise
  /// `StoreError.splitPart` refuses and nothing changes.
  public func deleteExpenses(ids: [Int64], wholeSplits: Bool = false) throws -> [Expense] {
    try recording("delete") {
      let before = try store.rowSnapshot(ids: ids)
      let deleted = try store.deleteExpenses(ids: ids, wholeSplits: wholeSplits)
      let after = try store.rowSnapshot(ids: before.ids)
      let gone = deleted.compactMap(\.id)
      let summary =
        gone.count == 1
        ? "delete \(gone[0]) " + (before.row(id: gone[0]).map { History.describe($0.row) } ?? "")
        : "delete \(gone.count) rows: " + gone.prefix(8).map(String.init).joined(separator: " ")
          + (gone.count > 8 ? " …" : "")
      return (deleted, summary, .effect(.rows(before: before, after: after)))
    }
  }

  /// Expenses by date then id: all, one month's or one category's, at most `limit`.
  public func expenses(month: Month? = nil, category: String? = nil, limit: Int? = nil) throws -> [Expense] {
    try namingTags(try namingPairs(try store.expenses(month: month, category: category, limit: limit)))
  }

  /// Expense `id`; `StoreError.expenseNotFound` when there is none.
  public func expense(id: Int64) throws -> Expense {
    guard let expense = try store.expense(id: id) else { throw StoreError.expenseNotFound([id]) }
    return try namingTags(try namingPairs([expense])).first ?? expense
  }

  /// One page of expenses after `cursor`.
  public func expensePage(month: Month?, category: String?, after cursor: String?, limit: Int) throws -> ExpensePage {
    var page = try store.expensePage(month: month, category: category, after: cursor, limit: limit)
    page.expenses = try namingTags(try namingPairs(page.expenses))
    return page
  }

  /// One page of a search (`GET /v1/expenses?search=`): the store's pages of `limit` rows are
  /// read until one holds a match (or 50 were read, so a request is bounded), and the matches
  /// of what was read are the page: at most `limit`, maybe none, with the cursor after the
  /// last row read.
  public func searchPage(
    month: Month?, category: String?, search: ExpenseSearch, after cursor: String?, limit: Int
  ) throws -> ExpensePage {
    var found: [Expense] = []
    var next = cursor
    let tags = try TagIndex.load(store)
    let tag = try search.tag.map(tags.known)
    for _ in 0..<50 {
      let page = try store.expensePage(month: month, category: category, after: next, limit: limit)
      next = page.nextCursor
      found += page.expenses.filter { expense in
        if let from = search.from, expense.date < from { return false }
        if let through = search.through, expense.date > through { return false }
        if let tag, !tags.tags(expense).contains(tag) { return false }
        return ExpenseRow.withRow(of: expense) { search.filter.matches($0) }
      }
      if !found.isEmpty || next == nil { break }
    }
    return ExpensePage(expenses: try namingTags(try namingPairs(found)), nextCursor: next)
  }

  /// The rows with their tags filled in (`Expense.tags`).
  func namingTags(_ expenses: [Expense]) throws -> [Expense] {
    let index = try TagIndex.load(store)
    guard !index.isEmpty else { return expenses }
    return expenses.map { expense in
      var tagged = expense
      tagged.tags = index.tags(expense)
      return tagged
    }
  }

  /// How many expenses are stored.
  public func expenseCount() throws -> Int { try store.expenseCount(month: nil) }
}
