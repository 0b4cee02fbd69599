import ExpenseCore
import ExpenseStore
import PostgresNIO

/// Transfer pairs (schema "v5-transfer-pairs"): read, undone, and dissolved with a row that
/// goes; the rollup follows the rows' categories by trigger.
extension PostgresStore {
  static let pairColumns =
    "SELECT out_id, in_id, out_category, out_source, in_category, in_source FROM transfer_pair"

  func transferPair(_ row: PostgresRow) throws -> TransferPair {
    let (outID, inID, outCategory, outSource, inCategory, inSource) = try row.decode(
      (Int64, Int64, String?, Int16, String?, Int16).self)
    return TransferPair(
      outId: outID, inId: inID, outCategory: outCategory, outSource: CategorySource(rawValue: Int(outSource)) ?? .none,
      inCategory: inCategory, inSource: CategorySource(rawValue: Int(inSource)) ?? .none)
  }

  public func transferPairs() throws -> [TransferPair] {
    try read { connection in
      try connection.query(
        PostgresQuery(unsafeSQL: Self.pairColumns + " WHERE ledger_id = $1 ORDER BY made", binds: try binds(ledger))
      ).map(transferPair)
    }
  }

  public func unpairTransfer(id: Int64) throws -> TransferPair {
    try write { connection in
      guard let pair = try pairs(connection, of: [id]).first else { throw StoreError.notPaired(id) }
      try dissolve(connection, pair, keeping: [pair.outId, pair.inId])
      return pair
    }
  }

  func pairs(_ connection: BlockingConnection, of ids: [Int64]) throws -> [TransferPair] {
    try connection.query(
      PostgresQuery(
        unsafeSQL: Self.pairColumns + " WHERE ledger_id = $1 AND (out_id = ANY($2) OR in_id = ANY($2)) ORDER BY made",
        binds: try binds(ledger, ids))
    ).map(transferPair)
  }

  /// Dissolves the pairs of rows about to be deleted (`ids`, or the ids in `range`): the other
  /// side of each, when it stays, gets its category back.
  func dissolvePairs(_ connection: BlockingConnection, of ids: [Int64]) throws {
    let going = Set(ids)
    for pair in try pairs(connection, of: ids) {
      try dissolve(connection, pair, keeping: [pair.outId, pair.inId].filter { !going.contains($0) })
    }
  }

  func dissolvePairs(_ connection: BlockingConnection, inRange range: ClosedRange<Int64>) throws {
    let pairs = try connection.query(
      PostgresQuery(
        unsafeSQL: Self.pairColumns
          + " WHERE ledger_id = $1 AND (out_id BETWEEN $2 AND $3 OR in_id BETWEEN $2 AND $3) ORDER BY made",
        binds: try binds(ledger, range.lowerBound, range.upperBound))
    ).map(transferPair)
    for pair in pairs {
      try dissolve(connection, pair, keeping: [pair.outId, pair.inId].filter { !range.contains($0) })
    }
  }

  /// Deletes `pair` and gives the rows in `keeping` the category they had before it, if they
  /// are still in the pair's (a category changed by hand since stays).
  private func dissolve(_ connection: BlockingConnection, _ pair: TransferPair, keeping: [Int64]) throws {
    try connection.query("DELETE FROM transfer_pair WHERE ledger_id = \(ledger) AND out_id = \(pair.outId)")
    for id in keeping {
      let (category, source) =
        id == pair.outId ? (pair.outCategory, pair.outSource) : (pair.inCategory, pair.inSource)
      let restored = category == nil ? CategorySource.none : source
      try connection.query(
        """
        UPDATE expense SET category = \(category), category_source = \(Int16(restored.rawValue))
        WHERE ledger_id = \(ledger) AND key = expense_key_of(\(ledger), \(id))
          AND category_source = \(Int16(CategorySource.transfer.rawValue))
        """)
    }
  }
}
