import ExpenseCore
import ExpenseStore

/// The whole ledger (`expenses copy`), health and backups.
extension MemoryStore {
  public func readLedger<T>(_ body: (LedgerContents, any StoredExpenseReader) throws -> T) throws -> T {
    try consistently { try body(state.contents, Reader(rows: state.rows.values.sorted { $0.key < $1.key })) }
  }

  /// The rows in key order, in batches.
  struct Reader: StoredExpenseReader {
    let rows: [StoredExpense]

    func forEachBatch(_ body: ([StoredExpense]) throws -> Void) throws {
      var start = 0
      while start < rows.count {
        let end = min(start + ledgerCopyBatchSize, rows.count)
        try body(Array(rows[start..<end]))
        start = end
      }
    }
  }

  public func loadLedger(
    _ contents: LedgerContents, expenses: (_ sink: ([StoredExpense]) throws -> Void) throws -> Void
  ) throws {
    try write { state in
      let held = state.contents
      guard held.isEmpty else {
        throw StoreError.ledgerNotEmpty(
          path: MemoryStore.name, ledger: DirectoryName.defaultLedger, what: LedgerContents.describe(held))
      }
      try expenses { batch in
        for row in batch {
          guard row.date.isSupported else { throw CoreError.dateOutOfRange(row.date.description) }
          guard state.rows[row.key] == nil, state.keyOfID[row.id] == nil else {
            throw StoreError.unreadable(path: MemoryStore.name, detail: "expense \(row.id) is given twice")
          }
          state.insert(row)
        }
      }
      state.nextExpenseID = contents.nextExpenseID
      state.nextRuleID = contents.nextRuleID
      state.nextImportID = max(contents.nextImportID, (contents.imports.map(\.id).max() ?? 0) + 1)
      state.budgets = contents.budgets
      state.kinds = contents.kinds
      state.rules = contents.rules
      state.sectionStates = contents.sectionStates
      state.settings = contents.settings
      state.profiles = contents.profiles
      state.imports = contents.imports
      state.splitParts = contents.splitParts
      state.records = contents.records
      state.nextRecordIDs = contents.nextRecordIDs
      for member in contents.members {
        var member = member
        member.ledger = DirectoryName.defaultLedger
        state.members.removeAll { $0.user == member.user && $0.ledger == member.ledger }
        state.members.append(member)
      }
      for stored in contents.tokens {
        var stored = stored
        stored.token.ledger = DirectoryName.defaultLedger
        state.tokens.append(stored)
      }
    }
  }

  /// Nothing is kept that the rows do not give on each read, so there is nothing to be out of
  /// step; the count is the rows'.
  public func check() throws -> CheckReport {
    try read { state in
      var report = CheckReport()
      report.expenseCount = state.rows.count
      return report
    }
  }

  public func repairRollups() throws -> (rebuilt: [String], report: CheckReport) { ([], try check()) }

  /// Refused: what lives in memory is copied with `readLedger` (`expenses copy`), not into a file.
  public func backup(into path: String) throws {
    throw StoreError.io(path: path, detail: "an in-memory store has no file to back up; copy its ledger instead")
  }
}

extension MemoryLedger {
  /// Everything but the rows, as `LedgerStore.readLedger` hands it over.
  var contents: LedgerContents {
    var contents = LedgerContents()
    contents.nextExpenseID = nextExpenseID
    contents.nextRuleID = nextRuleID
    contents.nextImportID = nextImportID
    contents.budgets = budgets
    contents.kinds = kinds
    contents.rules = rules.sorted { $0.id < $1.id }
    contents.sectionStates = sectionStates
    contents.settings = settings
    contents.profiles = profiles
    contents.imports = imports
    contents.tokens = tokens.filter { $0.token.ledger == DirectoryName.defaultLedger }.map { stored in
      var stored = stored
      stored.token = now(stored.token)
      stored.token.ledger = ""
      return stored
    }
    contents.members = members.filter { $0.ledger == DirectoryName.defaultLedger }.map { member in
      var member = member
      member.ledger = ""
      return member
    }
    contents.splitParts = splitParts
    contents.records = records.sorted { ($0.kind, $0.id) < ($1.kind, $1.id) }
    contents.nextRecordIDs = nextRecordIDs
    contents.expenseCount = rows.count
    return contents
  }
}
