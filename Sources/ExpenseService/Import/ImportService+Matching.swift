import ExpenseCore
import ExpenseStore

/// The rows of one import the matching looks at, gathered as the writer reports them.
///
/// Only rows that can have a stored neighbour are kept: those dated within `ImportMatching.days`
/// of the ledger's span of days before the import (a first import of a million rows into an
/// empty ledger keeps none), and rows that name an account (a file of several accounts can
/// hold both sides of a transfer), up to `accountRowLimit` of them. Such a row far from every
/// stored row can only be one side of a transfer inside this file, so it is kept only when it
/// may pair (`ImportMatching.mayPair`: a file whose rows have their own categories keeps none).
/// (Reading each kept row's words here instead of at the end, to keep only the texts worded as
/// a move, cost 3 s on 200,000 rows and saved no memory: measured, and left out.)
final class MatchCollector {
  static let accountRowLimit = 100_000
  let matching: ImportMatching
  let window: ClosedRange<CivilDate>?
  var added: [ImportMatching.Added] = []
  /// Keys of this file's rows that were exact duplicates: the stored rows they are stay taken.
  let exactKeys = ExactDuplicateKeys()
  /// The first and last day of every row the writer reported.
  var first: CivilDate?
  var last: CivilDate?
  private var accountRows = 0

  init(storedSpan: ClosedRange<CivilDate>?, matching: ImportMatching) {
    self.matching = matching
    window = storedSpan.map {
      CivilDate(
        daysSinceEpoch: $0.lowerBound.daysSinceEpoch - ImportMatching.days)...CivilDate(
          daysSinceEpoch: $0.upperBound.daysSinceEpoch + ImportMatching.days)
    }
  }

  /// A row the parse thread found stored (`StoredRow`): a duplicate, seen as `see` sees one.
  func seeStored(_ row: StoredRow) {
    if first.map({ row.date < $0 }) ?? true { first = row.date }
    if last.map({ row.date > $0 }) ?? true { last = row.date }
    if window?.contains(row.date) ?? false { exactKeys.insert(row.key) }
  }

  /// A batch the writer stored, `isNew[i]` telling whether `batch.rows[i]` was added: its
  /// rows read in place, in file order, and only those kept copied.
  func see(_ batch: PreparedBatch, isNew: [Bool]) {
    batch.rows.withUnsafeBufferPointer { rows in
      for position in batch.fileOrder {
        let index = Int(position)
        let date = rows[index].date
        if first.map({ date < $0 }) ?? true { first = date }
        if last.map({ date > $0 }) ?? true { last = date }
        let near = window?.contains(date) ?? false
        guard index < isNew.count, isNew[index] else {
          if near { exactKeys.insert(rows[index].key) }
          continue
        }
        guard rows[index].splitGroup == 0 else { continue }
        // Settled before the row is copied: a first import into an empty ledger keeps only
        // rows with an account.
        if !near { guard rows[index].account != nil, accountRows < Self.accountRowLimit else { continue } }
        let seen = ImportMatching.Added(
          key: rows[index].key, line: rows[index].line, date: date, amount: rows[index].amount,
          description: rows[index].description, account: rows[index].account, category: rows[index].category,
          categorySource: rows[index].categorySource)
        if !near {
          guard matching.mayPair(ImportMatching.Side(added: seen)) else { continue }
          accountRows += 1
        }
        added.append(seen)
      }
    }
  }

}

extension ImportService {
  /// Finds this import's probable duplicates and transfer pairs, takes back the duplicates
  /// (unless the request keeps them) and records the pairs, in the import's transaction; the
  /// summary lists both.
  func match(
    _ collector: MatchCollector, session: any ImportWriter, request: ImportRequest, kinds: [String: CategoryKind],
    records: [ImportRecord], transfers category: String, summary: inout ImportSummary
  ) throws {
    guard !collector.added.isEmpty else { return }
    var matching = ImportMatching(file: request.storedName, kinds: kinds)
    if let first = collector.first, let last = collector.last { matching.fileSpan = first...last }
    for record in records where record.firstDate <= record.lastDate {
      matching.storedSpans[record.file, default: []].append(record.firstDate...record.lastDate)
    }
    // Stored rows are read only over the days the ledger held before the import (widened by
    // the window): a first import into an empty ledger reads none back, and a large file
    // beside a few stored months reads only those months, not its own rows.
    let dates = collector.added.map(\.date.daysSinceEpoch)
    var stored: [NeighbourRow] = []
    if let window = collector.window, let low = dates.min(), let high = dates.max() {
      let first = max(low - ImportMatching.days, window.lowerBound.daysSinceEpoch)
      let last = min(high + ImportMatching.days, window.upperBound.daysSinceEpoch)
      if first <= last {
        let magnitudes = Set(collector.added.map { $0.amount.minor == .min ? Int64.max : abs($0.amount.minor) })
        let exact = try collector.exactKeys.sorted(
          within: ExpenseKey.range(from: CivilDate(daysSinceEpoch: first), through: CivilDate(daysSinceEpoch: last)))
        stored = try session.neighbours(
          from: CivilDate(daysSinceEpoch: first), through: CivilDate(daysSinceEpoch: last), magnitudes: magnitudes
        ).filter { !exact.contains($0.key) }
      }
    }
    let duplicates = matching.probableDuplicates(collector.added, stored: stored)
    summary.probableDuplicates = duplicates.map {
      .init(
        line: $0.added.line, existingId: $0.stored.id,
        existingSource: $0.stored.origin)
    }
    summary.probableDuplicatesKept = request.keepProbableDuplicates
    var added = collector.added
    if !request.keepProbableDuplicates && !duplicates.isEmpty {
      try session.withdraw(keys: duplicates.map(\.added.key))
      let gone = Set(duplicates.map(\.added.key))
      added.removeAll { gone.contains($0.key) }
    }
    let pairs = matching.transferPairs(added, stored: stored)
    guard !pairs.isEmpty else { return }
    try session.pairTransfers(pairs.map { TransferLink(outKey: $0.out.key, inKey: $0.into.key) }, category: category)
    try session.markTransfers([category])
    for (out, into) in pairs {
      for (side, other) in [(out, into), (into, out)] {
        guard let line = side.line else { continue }
        let with = other.stored?.origin
        summary.transfers.append(
          .init(line: line, pairedWithId: other.stored?.id, pairedWith: with ?? "line \(other.line ?? 0)"))
      }
    }
    summary.transfers.sort { $0.line < $1.line }
  }
}
