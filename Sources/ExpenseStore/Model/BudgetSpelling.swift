import ExpenseCore

/// Where a budget about to be saved goes: the one decision both stores take in the budget's
/// own write transaction, written once here (each store only runs the rename it asks for).
///
/// Why a budget's spelling wins: a user who types `budget set "Dining Out"` for a category an
/// import spelled `dining out` means the category they see; the first budget gives it its
/// spelling everywhere (rows, rollup, rules, kinds). A category already budgeted keeps its
/// spelling, so two budgets never rename it back and forth.
public enum BudgetSpelling: Equatable, Sendable {
  /// Store the budget under this spelling; nothing is renamed.
  case keep(String)
  /// Rename category `from` to `to` everywhere, then store the budget under `to`.
  case rename(from: String, to: String)

  /// The spelling the budget is stored under.
  public var spelling: String {
    switch self {
    case .keep(let name): return name
    case .rename(_, let to): return to
    }
  }

  /// The decision for a budget named `name`, given the categories `known` and whether a
  /// stored category already has a budget (`isBudgeted`, asked at most once).
  public static func decide(_ name: String, known: CategoryNames, isBudgeted: (String) throws -> Bool) rethrows
    -> BudgetSpelling
  {
    let tidy = CategoryName.tidy(name)
    guard !tidy.isEmpty else { return .keep(name) }
    guard let stored = known.known(tidy) else { return .keep(tidy) }
    if stored == tidy { return .keep(stored) }
    if try isBudgeted(stored) { return .keep(stored) }
    return .rename(from: stored, to: tidy)
  }
}

extension Budget {
  /// Refuses what no store keeps: a negative amount, or a month outside
  /// `Month.supportedRange` (reports would never read it).
  public func checkSavable() throws(CoreError) {
    guard amount.minor >= 0 else { throw CoreError.negativeBudget(amount.decimalString) }
    if let month, !month.isSupported { throw CoreError.monthOutOfRange(month.description) }
  }
}
