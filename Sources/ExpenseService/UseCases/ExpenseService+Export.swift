import ExpenseCore
import ExpenseRender
import ExpenseStore

extension ExpenseService {
  /// The journal formats of `export`.
  public enum ExportFormat: String, CaseIterable, Sendable {
    case ledger, beancount
  }

  /// The expenses dated from `first` through `last` (either open), with kinds and budgets, as a
  /// journal hledger, ledger or beancount reads.
  public func exportJournal(_ format: ExportFormat, from first: CivilDate?, through last: CivilDate?) throws -> String {
    let input = ExportInput(
      expenses: try store.expenses(from: first, through: last), kinds: try store.categoryKinds(),
      budgets: try store.budgets(), firstDay: first)
    switch format {
    case .ledger: return LedgerRenderer().render(input)
    case .beancount: return BeancountRenderer().render(input)
    }
  }
}
