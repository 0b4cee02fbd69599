import ExpenseStore

/// The service's records (`LedgerStore.records`): stored and handed back, never read.
extension MemoryStore {
  public func records(kind: String) throws -> [StoredRecord] {
    try read { state in state.records.filter { $0.kind == kind }.sorted { $0.id < $1.id } }
  }

  public func record(kind: String, id: Int64) throws -> StoredRecord? {
    try read { state in state.records.first { $0.kind == kind && $0.id == id } }
  }

  public func addRecord(kind: String, body: String) throws -> StoredRecord {
    try write { state in
      let id = state.nextRecordIDs[kind] ?? 1
      state.nextRecordIDs[kind] = id + 1
      let record = StoredRecord(kind: kind, id: id, body: body)
      state.records.append(record)
      return record
    }
  }

  public func restoreRecord(_ record: StoredRecord) throws {
    try write { state in
      guard !state.records.contains(where: { $0.kind == record.kind && $0.id == record.id }) else { return }
      state.records.append(record)
    }
  }

  public func removeRecord(kind: String, id: Int64) throws -> Bool {
    try write { state in
      let before = state.records.count
      state.records.removeAll { $0.kind == kind && $0.id == id }
      return state.records.count < before
    }
  }
}
