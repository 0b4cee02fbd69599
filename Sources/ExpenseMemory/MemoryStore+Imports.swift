import ExpenseCore
import ExpenseStore
import Foundation

/// Imports (one write per file, undone by id range), accounts and transfer pairs.
extension MemoryStore {
  public func importRows<T>(
    sourceFile: String, dryRun: Bool, explainLimit: Int, importedAt: Date?, _ body: (any ImportWriter) throws -> T
  ) throws -> T {
    try transaction(keep: !dryRun) {
      let writer = MemoryImportWriter(store: self, sourceFile: sourceFile, explainLimit: explainLimit, dryRun: dryRun)
      let value = try body(writer)
      writer.finish(importedAt: importedAt.map(ImportRecord.timestamp))
      return value
    }
  }

  public func imports() throws -> [ImportRecord] { try read { $0.imports.sorted { $0.id < $1.id } } }

  public func removeImport(id: Int64) throws -> Int {
    try write { state in
      guard let record = state.imports.first(where: { $0.id == id }) else { throw StoreError.importNotFound(id) }
      let ids = state.keyOfID.keys.filter { $0 >= record.firstId && $0 <= record.lastId }
      state.dissolvePairs(of: Set(ids))
      for id in ids { _ = state.remove(id: id) }
      state.imports.removeAll { $0.id == id }
      return ids.count
    }
  }

  public func accounts() throws -> [AccountSummary] {
    try read { state in
      var accounts: [String: AccountSummary] = [:]
      for row in state.rows.values {
        guard let name = row.account else { continue }
        if var summary = accounts[name] {
          summary.rows += 1
          summary.firstDate = min(summary.firstDate, row.date)
          summary.lastDate = max(summary.lastDate, row.date)
          accounts[name] = summary
        } else {
          accounts[name] = AccountSummary(name: name, rows: 1, firstDate: row.date, lastDate: row.date)
        }
      }
      return accounts.values.sorted { MemoryLedger.byBytes($0.name, $1.name) }
    }
  }

  public func renameAccount(_ from: String, to: String) throws -> Int {
    try write { state in
      var renamed = 0
      for (key, row) in state.rows where row.account == from {
        state.rows[key]?.account = to
        renamed += 1
      }
      let prefix = AccountNames.prefix
      for (key, value) in state.settings where key.hasPrefix(prefix) && value == from { state.settings[key] = to }
      state.settings[prefix + from] = to
      state.settings[prefix + to] = nil
      return renamed
    }
  }

  public func accountNames() throws -> [String: String] {
    try read { state in
      var names: [String: String] = [:]
      for (key, value) in state.settings where key.hasPrefix(AccountNames.prefix) {
        names[String(key.dropFirst(AccountNames.prefix.count))] = value
      }
      return names
    }
  }

  public func transferPairs() throws -> [TransferPair] { try read { $0.pairs } }

  public func unpairTransfer(id: Int64) throws -> TransferPair {
    try write { state in
      guard let pair = state.pairs.first(where: { $0.outId == id || $0.inId == id }) else {
        throw StoreError.notPaired(id)
      }
      state.dissolve(pair, keeping: [pair.outId, pair.inId])
      return pair
    }
  }
}
