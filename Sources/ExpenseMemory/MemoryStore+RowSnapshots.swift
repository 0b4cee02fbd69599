import ExpenseCore
import ExpenseStore

/// Rows as stored, read for the history and put back by an undo.
extension MemoryStore {
  public func rowSnapshot(ids: [Int64]) throws -> RowSnapshot {
    try read { state in
      var snapshot = RowSnapshot()
      var seen = Set<Int64>()
      var queue = ids
      while let id = queue.popLast() {
        guard seen.insert(id).inserted, let row = state.row(id: id) else { continue }
        snapshot.rows.append(SnapshotRow(row: row, splitSet: state.splitParts[id]))
        queue += state.splitParts(of: id) ?? []
        for pair in state.pairs where (pair.outId == id || pair.inId == id) && !snapshot.pairs.contains(pair) {
          snapshot.pairs.append(pair)
          queue += [pair.outId, pair.inId]
        }
      }
      snapshot.rows.sort { $0.row.id < $1.row.id }
      return snapshot
    }
  }

  public func restoreRows(_ snapshot: RowSnapshot) throws {
    try write { state in
      for part in snapshot.rows {
        if state.keyOfID[part.row.id] != nil { throw StoreError.keyTaken(id: part.row.id, holder: part.row.id) }
        if let holder = state.rows[part.row.key] { throw StoreError.keyTaken(id: part.row.id, holder: holder.id) }
        state.insert(part.row)
        if let set = part.splitSet { state.splitParts[part.row.id] = set }
      }
      for pair in snapshot.pairs where !state.pairs.contains(where: { $0.outId == pair.outId }) {
        state.pairs.append(pair)
      }
      for record in snapshot.imports where !state.imports.contains(where: { $0.id == record.id }) {
        state.imports.append(record)
        state.imports.sort { $0.id < $1.id }
      }
    }
  }
}
