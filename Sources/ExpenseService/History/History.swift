import ExpenseCore
import ExpenseStore
import Foundation

/// The history of a ledger's changes, as records (`StoredRecord`): a `change` per change (what
/// `expenses history` lists: small, read whole) and a `change-effect` beside it (what an undo
/// reads: the rows before and after, which can be large), each kind's ids never given twice.
///
/// Why records and no table: a change is written in the transaction of the write it records
/// (`store.atomically`, or an import's writer), copied by `expenses copy` and kept by a backup
/// like every other record, with no migration and no store function of its own.
///
/// Bounded: the newest `limit` changes, holding at most `rowLimit` rows of effects in all; an
/// older change goes (its effect with it) when a new one would pass either bound. A change of
/// more than `changeRowLimit` rows is listed but keeps no effect: it cannot be undone, and the
/// change's summary says so.
enum History {
  static let changes = RecordKind<Entry>(name: "change")
  static let effects = RecordKind<ChangeEffect>(name: "change-effect")

  /// How many changes are kept.
  static let limit = 1_000
  /// How many rows the kept effects may hold in all.
  static let rowLimit = 200_000
  /// The most rows one change's effect may hold.
  static let changeRowLimit = 50_000

  /// What a write leaves to record: its effect, or only how many rows it touched when that is
  /// more than the history keeps for one change.
  enum Recorded {
    case effect(ChangeEffect)
    case tooBig(rows: Int)
  }

  /// One change as listed.
  struct Entry: Codable, Equatable {
    /// What kind of write: `add`, `edit`, `delete`, `import`, `imports remove`, `rules apply`,
    /// `budget set`, `budget remove`, `budget move`, `budget moves remove`, `goal add`,
    /// `goal remove`, `kind`, `undo`.
    var action: String
    /// One line: "edit 42 category Groceries → Dining out".
    var summary: String
    /// Who: the user, and the token when the change came over HTTP.
    var by: String
    /// When, ISO 8601 in UTC.
    var at: String
    /// The change this one undid (an undo's).
    var undoes: Int64?
    /// How many rows it touched.
    var rows: Int
    /// Its `change-effect` record; nil when it was too big to keep (it cannot be undone).
    var effect: Int64?
    /// A small effect kept in the entry itself: an import's, whose writer adds records but
    /// cannot read back their ids.
    var inline: ChangeEffect? = nil
  }

  /// Records a change with its effect, in the caller's transaction, and keeps the bounds.
  @discardableResult
  static func record(
    _ store: any LedgerStore, action: String, summary: String, by: String, at: String, effect: Recorded,
    undoes: Int64? = nil
  ) throws -> Int64 {
    var rows = 0
    var kept: Int64?
    switch effect {
    case .effect(let effect):
      rows = effect.rowCount
      if rows <= changeRowLimit { kept = try effects.add(effect, to: store) }
    case .tooBig(let count): rows = count
    }
    let entry = Entry(
      action: action, summary: kept == nil ? summary + " (too big to undo)" : summary, by: by, at: at,
      undoes: undoes, rows: rows, effect: kept)
    let id = try changes.add(entry, to: store)
    try prune(store)
    return id
  }

  /// Forgets the oldest changes past the bounds.
  static func prune(_ store: any LedgerStore) throws {
    let all = try changes.load(store)
    var held = all.reduce(0) { $0 + ($1.body.effect == nil ? 0 : $1.body.rows) }
    var count = all.count
    for (id, entry) in all where count > limit || held > rowLimit {
      _ = try store.removeRecord(kind: changes.name, id: id)
      if let effect = entry.effect {
        _ = try store.removeRecord(kind: effects.name, id: effect)
        held -= entry.rows
      }
      count -= 1
    }
  }

  /// The effect of change `entry`, if kept.
  static func effect(of entry: Entry, in store: any LedgerStore) throws -> ChangeEffect? {
    if let inline = entry.inline { return inline }
    guard let id = entry.effect, let record = try store.record(kind: effects.name, id: id) else { return nil }
    do {
      return try JSONDecoder().decode(ChangeEffect.self, from: Data(record.body.utf8))
    } catch {
      throw StoreError.unreadable(
        path: store.filePath ?? "the database", detail: "\(effects.name) #\(id) cannot be read")
    }
  }
}
