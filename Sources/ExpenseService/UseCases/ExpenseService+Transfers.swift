import ExpenseCore
import ExpenseStore

/// One transfer pair with both of its rows, as `expenses transfers` lists it.
public struct TransferPairView: Sendable {
  public var pair: TransferPair
  /// The money out and the money in; nil for a row no longer stored.
  public var out: Expense?
  public var into: Expense?
}

extension ExpenseService {
  /// Every transfer pair the imports matched, with both rows, oldest first.
  public func transferPairs() throws -> [TransferPairView] {
    try store.consistently {
      try store.transferPairs().map { pair in
        TransferPairView(pair: pair, out: try store.expense(id: pair.outId), into: try store.expense(id: pair.inId))
      }
    }
  }

  /// Undoes the pair expense `id` is one side of: both rows get back the categories they had.
  public func unpairTransfer(id: Int64) throws -> TransferPair { try store.unpairTransfer(id: id) }
}
