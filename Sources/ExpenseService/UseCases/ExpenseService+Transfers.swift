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

  /// The other side of every paired row, by id (what a row's JSON names as `transferWith`).
  func transferPartners() throws -> [Int64: Int64] { try Self.transferPartners(store) }

  static func transferPartners(_ store: any LedgerStore) throws -> [Int64: Int64] {
    var partners: [Int64: Int64] = [:]
    for pair in try store.transferPairs() {
      partners[pair.outId] = pair.inId
      partners[pair.inId] = pair.outId
    }
    return partners
  }

  /// `expenses` with `transferWith` filled in for the rows in a transfer pair.
  func namingPairs(_ expenses: [Expense]) throws -> [Expense] {
    let partners = try transferPartners()
    guard !partners.isEmpty else { return expenses }
    return expenses.map { expense in
      var named = expense
      named.transferWith = expense.id.flatMap { partners[$0] }
      return named
    }
  }

  /// Undoes the pair expense `id` is one side of: both rows get back the categories they had.
  public func unpairTransfer(id: Int64) throws -> TransferPair {
    try recording("transfers unpair") {
      let before = try store.rowSnapshot(ids: [id])
      let pair = try store.unpairTransfer(id: id)
      let after = try store.rowSnapshot(ids: before.ids)
      return (
        pair, "transfers unpair \(pair.outId) and \(pair.inId)", .effect(.rows(before: before, after: after))
      )
    }
  }
}
