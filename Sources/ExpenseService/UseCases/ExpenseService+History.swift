import ExpenseCore
import ExpenseStore

/// The history of changes and their undo. Every write of the ledger's data records itself
/// (`recording`) in its own transaction, with the state it changed before and after
/// (`ChangeEffect`); `undo` checks that state is still as the change left it, puts the state
/// before back, and records the undo as a change of its own.
extension ExpenseService {
  /// Who makes the changes this service writes: the user, and the token over HTTP.
  var changeAuthor: String { token.map { "\(user) (token \($0))" } ?? user }

  /// Runs `body` (a write) and records what it did, all in one transaction.
  func recording<T>(
    _ action: String, _ body: () throws -> (value: T, summary: String, effect: History.Recorded?)
  ) throws -> T {
    try store.atomically {
      let (value, summary, effect) = try body()
      if let effect {
        try History.record(
          store, action: action, summary: summary, by: changeAuthor, at: clock.timestamp, effect: effect)
      }
      return value
    }
  }

  /// The changes the history keeps, newest first (at most `limit`).
  public func history(limit: Int? = nil) throws -> [HistoryChange] {
    try store.consistently {
      let all = try History.changes.load(store)
      let shown = all.reversed().prefix(limit ?? all.count)
      let standing = History.standingUndos(all)
      return shown.map { History.change($0.id, $0.body, standing: standing) }
    }
  }

  /// Change `id` as the history lists it.
  public func change(id: Int64) throws -> HistoryChange {
    guard let found = try history().first(where: { $0.id == id }) else { throw ServiceError.changeNotFound(id) }
    return found
  }

  /// Undoes change `id` (nil: the newest change that is not an undo and stands), in one
  /// transaction: refused, with nothing changed, when what it changed was changed since.
  public func undo(_ id: Int64? = nil) throws -> UndoResult {
    try store.atomically {
      let all = try History.changes.load(store)
      let standing = History.standingUndos(all)
      let target: (id: Int64, body: History.Entry)
      if let id {
        guard let found = all.first(where: { $0.id == id }) else { throw ServiceError.changeNotFound(id) }
        if let by = standing[id] { throw ServiceError.alreadyUndone(id, by: by) }
        target = found
      } else {
        guard let found = all.last(where: { $0.body.action != "undo" && standing[$0.id] == nil }) else {
          throw ServiceError.nothingToUndo
        }
        target = found
      }
      guard let effect = try History.effect(of: target.body, in: store) else {
        throw ServiceError.cannotUndo(target.id, rows: target.body.rows)
      }
      let (inverse, lines) = try reverse(effect, change: target.id)
      let id = try History.record(
        store, action: "undo", summary: "undo #\(target.id): \(target.body.summary)", by: changeAuthor,
        at: clock.timestamp, effect: inverse.map { .effect($0) } ?? .tooBig(rows: target.body.rows),
        undoes: target.id)
      let after = try History.changes.load(store)
      let nowStanding = History.standingUndos(after)
      let undone = History.change(target.id, target.body, standing: nowStanding)
      guard let made = after.first(where: { $0.id == id }) else { throw ServiceError.changeNotFound(id) }
      return UndoResult(
        undone: undone, change: History.change(id, made.body, standing: nowStanding), changedBack: lines)
    }
  }
}

extension History {
  /// Each change undone by an undo that stands (not itself undone): change → undo.
  static func standingUndos(_ all: [(id: Int64, body: Entry)]) -> [Int64: Int64] {
    var undoneBy: [Int64: Int64] = [:]
    for (id, entry) in all { if let target = entry.undoes { undoneBy[target] = id } }
    var memo: [Int64: Bool] = [:]
    func stands(_ id: Int64, depth: Int = 0) -> Bool {
      if let known = memo[id] { return known }
      guard depth < 10_000, let by = undoneBy[id] else { return true }
      let result = !stands(by, depth: depth + 1)
      memo[id] = result
      return result
    }
    var result: [Int64: Int64] = [:]
    for (target, by) in undoneBy where stands(by) { result[target] = by }
    return result
  }

  static func change(_ id: Int64, _ entry: Entry, standing: [Int64: Int64]) -> HistoryChange {
    HistoryChange(
      id: id, action: entry.action, summary: entry.summary, by: entry.by, at: entry.at, rows: entry.rows,
      undoes: entry.undoes, undoneBy: standing[id],
      undoable: standing[id] == nil && (entry.effect != nil || entry.inline != nil))
  }
}
