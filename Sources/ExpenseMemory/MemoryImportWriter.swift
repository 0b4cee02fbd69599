import ExpenseCore
import ExpenseStore

/// Stores one file's rows into a `MemoryStore`'s state, inside `importRows` (which holds the
/// store's lock and puts the state back if the import fails or is a dry run).
///
/// A row is a duplicate when its key (or its former key) is stored, this file's earlier rows
/// included; else it takes the next id, in file order, as in the other stores.
final class MemoryImportWriter: ImportWriter {
  let store: MemoryStore
  let sourceFile: String
  let explainLimit: Int
  let dryRun: Bool
  var onOutcome: ((_ row: ImportedRow, _ outcome: ImportOutcome) -> Void)?
  var onBatchWritten: ((_ batch: PreparedBatch, _ isNew: [Bool]) -> Void)?
  private(set) var inserted = 0
  private(set) var duplicates = 0
  private(set) var explained: [ImportDuplicate] = []
  private(set) var firstDate: CivilDate?
  private(set) var lastDate: CivilDate?
  private(set) var recordID: Int64?
  let storedSpan: ClosedRange<CivilDate>?
  /// The first id this import gives: rows with a smaller one were stored before it began.
  let firstID: Int64
  private var splits = SplitSets()

  init(store: MemoryStore, sourceFile: String, explainLimit: Int, dryRun: Bool) {
    self.store = store
    self.sourceFile = sourceFile
    self.explainLimit = explainLimit
    self.dryRun = dryRun
    firstID = store.state.nextExpenseID
    let dates = store.state.rows.values.map(\.date)
    storedSpan = dates.min().flatMap { first in dates.max().map { first...$0 } }
  }

  func write(_ batch: PreparedBatch) throws {
    var isNew = [Bool](repeating: false, count: batch.rows.count)
    for position in batch.fileOrder {
      let row = batch.rows[Int(position)]
      guard row.date.isSupported else { throw CoreError.dateOutOfRange(row.date.description) }
      if let twin = store.state.rows[row.key] ?? row.formerKey.flatMap({ store.state.rows[$0] }) {
        duplicates += 1
        if explained.count < explainLimit {
          let origin = twin.sourceFile.map { "\($0):\(twin.sourceLine ?? 0)" } ?? "added by hand"
          explained.append(ImportDuplicate(line: row.line, existingSource: origin))
        }
        onOutcome?(row, .duplicate)
        continue
      }
      let id = store.state.nextExpenseID
      store.state.nextExpenseID += 1
      store.state.insert(
        StoredExpense(
          key: row.key, id: id, date: row.date, amount: row.amount, description: row.description,
          category: row.category, account: row.account, sourceFile: sourceFile, sourceLine: Int64(row.line),
          categorySource: row.categorySource.rawValue))
      inserted += 1
      isNew[Int(position)] = true
      if firstDate.map({ row.date < $0 }) ?? true { firstDate = row.date }
      if lastDate.map({ row.date > $0 }) ?? true { lastDate = row.date }
      if row.splitGroup != 0, let set = splits.add(group: row.splitGroup, id: id) { save(set) }
      onOutcome?(row, .inserted)
    }
    onBatchWritten?(batch, isNew)
  }

  /// None: the parse thread may not read the state this writer changes.
  func storedKeysBefore() throws -> (any StoredKeys)? { nil }

  func closeStoredKeys() {}

  func recordStored(_ rows: [StoredRow]) throws {
    for row in rows {
      duplicates += 1
      guard explained.count < explainLimit else { continue }
      let twin = store.state.rows[row.key]
      let origin = twin.flatMap { stored in stored.sourceFile.map { "\($0):\(stored.sourceLine ?? 0)" } }
      explained.append(ImportDuplicate(line: row.line, existingSource: origin ?? "added by hand"))
    }
  }

  private func save(_ set: SplitSets.Set) {
    for part in set.parts { store.state.splitParts[part] = set.id }
  }

  func saveProfile(name: String, json: String) throws { store.state.profiles[name] = json }

  func addRecord(kind: String, body: String) throws {
    guard !dryRun else { return }
    let id = store.state.nextRecordIDs[kind] ?? 1
    store.state.nextRecordIDs[kind] = id + 1
    store.state.records.append(StoredRecord(kind: kind, id: id, body: body))
  }

  func markTransfers(_ categories: Set<String>) throws {
    for name in categories where store.state.kinds[name] == nil { store.state.kinds[name] = .transfer }
  }

  func storeWritten() throws {}

  func neighbours(from first: CivilDate, through last: CivilDate, magnitudes: Set<Int64>) throws -> [NeighbourRow] {
    guard first <= last, !magnitudes.isEmpty else { return [] }
    let paired = Set(store.state.pairs.flatMap { [$0.outId, $0.inId] })
    return store.state.rows.values
      .filter {
        $0.id < firstID && $0.date >= first && $0.date <= last
          && magnitudes.contains(Int64(clamping: $0.amount.minor.magnitude))
      }
      .sorted { $0.key < $1.key }
      .map { row in
        let expense = MemoryLedger.expense(row)
        return NeighbourRow(
          key: row.key, id: row.id, date: row.date, amount: row.amount, description: row.description,
          account: row.account, category: row.category,
          categorySource: CategorySource(rawValue: row.categorySource) ?? CategorySource.none, source: expense.source,
          paired: paired.contains(row.id))
      }
  }

  func withdraw(keys: [Int64]) throws {
    for key in keys {
      guard let row = store.state.rows[key], row.id >= firstID, store.state.remove(id: row.id) != nil else { continue }
      inserted -= 1
    }
  }

  func pairTransfers(_ links: [TransferLink], category: String) throws {
    guard !dryRun else { return }
    for link in links {
      guard let out = store.state.rows[link.outKey], let into = store.state.rows[link.inKey] else { continue }
      store.state.pairs.append(
        TransferPair(
          outId: out.id, inId: into.id, outCategory: out.category,
          outSource: CategorySource(rawValue: out.categorySource) ?? CategorySource.none, inCategory: into.category,
          inSource: CategorySource(rawValue: into.categorySource) ?? CategorySource.none))
      for row in [link.outKey, link.inKey] {
        store.state.rows[row]?.category = category
        store.state.rows[row]?.categorySource = CategorySource.transfer.rawValue
      }
    }
  }

  /// Ends the import: the last split set, and the record when rows were added.
  func finish(importedAt: String?) {
    if let set = splits.finish() { save(set) }
    guard !dryRun, inserted > 0, let firstDate, let lastDate else { return }
    let id = store.state.nextImportID
    store.state.nextImportID += 1
    store.state.imports.append(
      ImportRecord(
        id: id, file: sourceFile, importedAt: importedAt, rows: inserted, firstId: firstID,
        lastId: store.state.nextExpenseID - 1, firstDate: firstDate, lastDate: lastDate))
    recordID = id
  }
}
