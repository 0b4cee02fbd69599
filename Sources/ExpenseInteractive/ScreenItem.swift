import ExpenseRender

/// Something the cursor can rest on: a section header or an expense row.
public enum ScreenItem: Hashable, Sendable {
  case header(SectionID)
  /// An expense, by its index in the report's `expenses`.
  case row(Int)

  /// The section the item belongs to.
  public var section: SectionID {
    switch self {
    case .header(let id): return id
    case .row: return .expenses
    }
  }
}
