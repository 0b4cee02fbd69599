import ExpenseCore
import ExpenseStore

/// What one change did, as data an undo can check and reverse: the state it changed, before
/// and after. An undo checks that the state is still the "after" (else something changed it
/// since, and the undo is refused naming what), puts the "before" back, and records itself as
/// a change whose effect is the inverse, so an undo can be undone too.
enum ChangeEffect: Codable, Equatable {
  /// Rows before and after (add: none before; delete: none after; an edit or `rules apply`:
  /// both), each with the split sets and pairs that hold them together.
  case rows(before: RowSnapshot, after: RowSnapshot)
  /// An import added rows: undone by removing the import.
  case imported(id: Int64)
  /// An import as its own transaction records it: by its file and time, since its id is given
  /// only as it commits (the record a later undo finds is the one with both).
  case importedFile(file: String, at: String)
  /// An import was removed: its record, its rows and its statement balances, to put back.
  case importRemoved(record: ImportRecord, before: RowSnapshot, after: RowSnapshot, balances: [StoredRecord])
  /// One category's budgets and terms (rollover, period), before and after.
  case budgets(category: String, before: BudgetState, after: BudgetState)
  /// A category's kind before and after (nil: none stored, the default).
  case kind(category: String, before: CategoryKind?, after: CategoryKind?)
  /// A rule before and after (nil: none with its id): added, replaced or removed.
  case rule(id: Int64, before: CategoryRule?, after: CategoryRule?)
  /// Settings before and after (nil: not set), by key: an account's name for later imports.
  case settings(before: [String: String?], after: [String: String?])
  /// Several effects of one change (a row filed with a new rule), in the order made.
  indirect case group([ChangeEffect])
  /// Records of the service's (a budget move, a goal) added and removed.
  case records(kind: String, added: [StoredRecord], removed: [StoredRecord])

  /// How many rows the effect holds (what the history's bound counts).
  var rowCount: Int {
    switch self {
    case .rows(let before, let after): return max(before.rows.count, after.rows.count)
    case .importRemoved(_, let before, _, _): return before.rows.count
    case .group(let effects): return effects.reduce(0) { $0 + $1.rowCount }
    default: return 0
    }
  }
}

/// One category's budgets and the terms kept as settings, as an undo compares and restores them.
struct BudgetState: Codable, Equatable {
  /// The category's budgets, every currency and month, in a fixed order.
  var budgets: [Budget]
  /// Its rollover and period settings per currency, read as they mean (none stored reads as
  /// `off` and `month`, so "never set" and "set back" compare equal).
  var settings: [String: String]
  /// The currencies `settings` covers: an undo reads the state again in exactly these.
  var currencies: [Currency]
}

extension StoredRecord: Codable {
  enum CodingKeys: String, CodingKey { case kind, id, body }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      kind: try c.decode(String.self, forKey: .kind), id: try c.decode(Int64.self, forKey: .id),
      body: try c.decode(String.self, forKey: .body))
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(kind, forKey: .kind)
    try c.encode(id, forKey: .id)
    try c.encode(body, forKey: .body)
  }
}
