import ExpenseCore
import ExpenseRender
import ExpenseStore

extension ExpenseService {
  /// The journal formats of `export`.
  public enum ExportFormat: String, CaseIterable, Sendable {
    case ledger, beancount
  }

  /// The journal `writeJournal` writes, as one text (for callers that want it whole).
  public func exportJournal(_ format: ExportFormat, from first: CivilDate?, through last: CivilDate?) throws -> String {
    final class Collected { var bytes: [UInt8] = [] }
    let collected = Collected()
    var out = OutputBuffer { collected.bytes.append(contentsOf: $0) }
    try writeJournal(format, from: first, through: last, into: &out)
    try out.flush()
    return String(decoding: collected.bytes, as: UTF8.self)
  }

  /// Writes the expenses dated from `first` through `last` (either open), with kinds and
  /// budgets, as a journal hledger, ledger or beancount reads, into `out` as the rows are read
  /// (`JournalStream`: the bytes `LedgerRenderer` or `BeancountRenderer` make of the same rows).
  ///
  /// Two passes over one snapshot of the store: the first, in storage order, collects the
  /// accounts and currencies the header declares; the second writes the transactions oldest
  /// first. Memory follows the number of accounts, not of rows. Errors of `out`'s drain (a
  /// closed output) are rethrown as they are; `out` is not flushed.
  public func writeJournal(
    _ format: ExportFormat, from first: CivilDate?, through last: CivilDate?, into out: inout OutputBuffer
  ) throws {
    let periods = try PeriodSettings.load(store)
    var journal = JournalStream(
      format: format == .ledger ? .ledger : .beancount, kinds: try store.categoryKinds(),
      budgets: BudgetMoves.applied(try BudgetMoves.load(store), to: try store.budgets(), periods: periods),
      periods: periods, firstDay: first)
    let tags = try TagIndex.load(store)
    if !tags.isEmpty { journal.tags = { tags.tags($0) } }
    let query = ExpenseQuery(from: first, through: last, order: .oldestFirst)
    try store.withExpenseSnapshot { snapshot in
      try snapshot.forEachExpense(query.ordered(.any)) { journal.measure($0) }
      journal.writeHeader(into: &out)
      try out.endRow()
      try snapshot.forEachExpense(query) { row in
        journal.write(row, into: &out)
        try out.endRow()
      }
    }
  }
}
