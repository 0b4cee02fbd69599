import ExpenseCore
import ExpenseStore
import Foundation

/// Everything a `MemoryStore` holds, as one value: its ledger's rows and small tables, and its
/// directory (ledgers, members, tokens), as a SQLite main file holds them.
///
/// Why one value: a write changes it in place and, when the write throws (or is a dry run),
/// the value saved before is put back, so "one transaction" costs one copy and no undo code.
struct MemoryLedger {
  /// The rows by key (unique in a ledger, as in the other stores), and each id's key.
  var rows: [Int64: StoredExpense] = [:]
  var keyOfID: [Int64: Int64] = [:]
  var nextExpenseID: Int64 = 1
  var nextRuleID: Int64 = 1
  var nextImportID: Int64 = 1
  var budgets: [Budget] = []
  var kinds: [String: CategoryKind] = [:]
  var rules: [CategoryRule] = []
  var sectionStates: [String: Bool] = [:]
  var settings: [String: String] = [:]
  var profiles: [String: String] = [:]
  var imports: [ImportRecord] = []
  /// A split part's id and its set's id (the set's first part).
  var splitParts: [Int64: Int64] = [:]
  /// Transfer pairs in the order they were made.
  var pairs: [TransferPair] = []
  var answers: [AnswerKey: IdempotentResponse] = [:]
  /// The service's records and each kind's next id.
  var records: [StoredRecord] = []
  var nextRecordIDs: [String: Int64] = [:]
  /// Raised by every kept write: the revision, the change stamp and the directory's stamp.
  var revision: Int64 = 0

  // The directory.
  var ledgers: [String] = [DirectoryName.defaultLedger]
  var members: [Membership] = [
    Membership(user: DirectoryName.localUser, ledger: DirectoryName.defaultLedger, role: .owner, since: "")
  ]
  var tokens: [StoredToken] = []

  struct AnswerKey: Hashable {
    var token: String
    var key: String
  }
}

extension MemoryLedger {
  /// Row `id`, if stored.
  func row(id: Int64) -> StoredExpense? { keyOfID[id].flatMap { rows[$0] } }

  mutating func insert(_ row: StoredExpense) {
    rows[row.key] = row
    keyOfID[row.id] = row.key
  }

  mutating func remove(id: Int64) -> StoredExpense? {
    guard let key = keyOfID.removeValue(forKey: id) else { return nil }
    splitParts[id] = nil
    return rows.removeValue(forKey: key)
  }

  /// The stored spellings of every known category (budgets first: a budget's spelling wins),
  /// as the other stores list them.
  var categoryNames: CategoryNames {
    let fromRows = Set(rows.values.compactMap(\.category)).sorted(by: MemoryLedger.byBytes)
    return CategoryNames(
      spellings: budgets.map(\.category) + fromRows + rules.map(\.category)
        + kinds.keys.sorted(by: MemoryLedger.byBytes))
  }

  /// The ids of the split transaction `id` is a part of, in order; nil for an ordinary row.
  func splitParts(of id: Int64) -> [Int64]? {
    guard let set = splitParts[id] else { return nil }
    return splitParts.filter { $0.value == set }.map(\.key).sorted()
  }

  /// Rows in the order of `ExpenseQuery.Order.newestFirst` (date then id, newest first).
  var newestFirst: [StoredExpense] {
    rows.values.sorted { ($0.date, $0.id) > ($1.date, $1.id) }
  }

  /// Text in byte order, as the SQL stores sort it (`COLLATE "C"`, SQLite's `BINARY`).
  static func byBytes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

  /// The row as the application reads it.
  static func expense(_ row: StoredExpense) -> Expense {
    var expense = Expense(
      id: row.id, date: row.date, amount: row.amount, description: row.description, category: row.category,
      account: row.account,
      source: row.sourceFile.map { Expense.Source(file: $0, line: Int(clamping: row.sourceLine ?? 0)) })
    expense.categorySource = CategorySource(rawValue: row.categorySource) ?? CategorySource.none
    return expense
  }

  /// The filters `list` and `export` share, as one test of a row; the category's stored
  /// spelling is looked up once, not per row.
  func selecting(month: Month?, category: String?, from: CivilDate?, through: CivilDate?) -> (StoredExpense) -> Bool {
    let wanted: String??
    if let category {
      wanted =
        CategoryName.key(category) == CategoryName.key(uncategorizedName)
        ? .some(nil) : .some(categoryNames.known(category) ?? category)
    } else {
      wanted = nil
    }
    return { row in
      if let month, row.date.calendarMonth != month { return false }
      if let from, row.date < from { return false }
      if let through, row.date > through { return false }
      if let wanted, row.category != wanted { return false }
      return true
    }
  }

  /// Gives back the categories `pair`'s rows in `keeping` had before it, where they are still
  /// the pair's (a category changed by hand since stays), and forgets the pair.
  mutating func dissolve(_ pair: TransferPair, keeping: [Int64]) {
    pairs.removeAll { $0.outId == pair.outId }
    for id in keeping {
      guard let key = keyOfID[id], var row = rows[key], row.categorySource == CategorySource.transfer.rawValue
      else { continue }
      let (category, source) = id == pair.outId ? (pair.outCategory, pair.outSource) : (pair.inCategory, pair.inSource)
      row.category = category
      row.categorySource = (category == nil ? CategorySource.none : source).rawValue
      rows[key] = row
    }
  }

  /// Dissolves the pairs of rows about to go: the other side of each, when it stays, gets its
  /// category back.
  mutating func dissolvePairs(of ids: Set<Int64>) {
    for pair in pairs where ids.contains(pair.outId) || ids.contains(pair.inId) {
      dissolve(pair, keeping: [pair.outId, pair.inId].filter { !ids.contains($0) })
    }
  }
}
