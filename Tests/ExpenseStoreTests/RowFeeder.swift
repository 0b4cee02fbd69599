import ExpenseCore
import Foundation

@testable import ExpenseSQLite
@testable import ExpenseStore

/// Feeds rows to an import one at a time, cut into batches by the same `ImportBatcher` the
/// import service uses (with the stored category spellings), for tests that build rows by hand.
final class RowFeeder {
  let session: ImportSession
  private var batcher: ImportBatcher

  init(_ session: ImportSession) throws {
    self.session = session
    batcher = ImportBatcher(names: try AppDatabase.categoryNames(session.db))
  }

  func insert(
    date: CivilDate, amount: Money, description: String, category: String?, account: String?,
    fingerprintHash: UInt64, line: Int, categorySource: CategorySource? = nil, splitGroup: Int = 0,
    formerKey: Int64? = nil
  ) throws {
    var row = ImportedRow(
      line: line, date: date, amount: amount, description: description, category: category, account: account,
      fingerprintHash: fingerprintHash, categorySource: categorySource)
    row.splitGroup = splitGroup
    row.formerKey = formerKey
    if let batch = try batcher.add(row) { try session.write(batch) }
  }

  func flush() throws {
    if let batch = try batcher.finish() { try session.write(batch) }
  }

  var onOutcome: ((_ row: ImportedRow, _ outcome: ImportSession.Outcome) -> Void)? {
    get { session.onOutcome }
    set { session.onOutcome = newValue }
  }
  var inserted: Int { session.inserted }
  var duplicates: Int { session.duplicates }
  var explained: [ImportSession.Duplicate] { session.explained }
  var recordID: Int64? { session.recordID }
}

extension AppDatabase {
  /// `importFile` for rows given one by one: everything queued is written before the import
  /// commits, as the import service does.
  func importRows<T>(
    sourceFile: String, dryRun: Bool = false, explainLimit: Int = 20, importedAt: Date? = nil,
    _ body: (RowFeeder) throws -> T
  ) throws -> T {
    try importFile(sourceFile: sourceFile, dryRun: dryRun, explainLimit: explainLimit, importedAt: importedAt) {
      session in
      let feeder = try RowFeeder(session)
      let value = try body(feeder)
      try feeder.flush()
      return value
    }
  }
}

extension ExpenseKey {
  /// The raw key of a date and hash (tests compare raw keys with stored ones).
  static func raw(date: CivilDate, fingerprintHash: UInt64) -> Int64 {
    ExpenseKey(date: date, fingerprintHash: fingerprintHash).rawValue
  }
}
