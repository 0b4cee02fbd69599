import ExpenseCore
import ExpenseStore
import Foundation

/// Statement balances as the service keeps them: records of kind `statement-balance`
/// (`StoredRecord`), each the balance and when the import that brought it ran (none for one
/// typed with `reconcile`): with the balance's file, that names the import (`ImportRecord`'s
/// file and time; the import's id is only known once its rows are stored), so removing an
/// import removes its balances with its rows.
enum StatementBalances {
  static let records = RecordKind<Body>(name: "statement-balance")

  struct Body: Codable, Equatable {
    var balance: StatementBalance
    /// `ImportRecord.importedAt` of the import that brought it.
    var importedAt: String?
  }

  static func load(_ store: any LedgerStore) throws -> [(id: Int64, body: Body)] { try records.load(store) }

  /// What `read` adds to the stored balances: a balance already stored (the same account, day
  /// and amount: the same file imported again, or an overlapping one) is not stored twice.
  static func new(_ read: [StatementBalance], stored: [Body]) -> [StatementBalance] {
    var seen = Set(stored.map { Key($0.balance) })
    return read.filter { seen.insert(Key($0)).inserted }
  }

  struct Key: Hashable {
    var account: String?
    var date: CivilDate
    var amount: Money
    init(_ balance: StatementBalance) {
      account = balance.account
      date = balance.date
      amount = balance.amount
    }
  }

  /// The stored records of the balances `imported` brought (what an undone removal puts back,
  /// under their ids).
  static func stored(of imported: ImportRecord, in store: any LedgerStore) throws -> [StoredRecord] {
    try store.records(kind: records.name).filter { record in
      guard let body = try? JSONDecoder().decode(Body.self, from: Data(record.body.utf8)) else { return false }
      return body.importedAt != nil && body.importedAt == imported.importedAt && body.balance.file == imported.file
    }
  }

  /// Removes the balances `imported` brought.
  static func remove(_ imported: ImportRecord, from store: any LedgerStore) throws {
    for record in try load(store)
    where record.body.importedAt != nil && record.body.importedAt == imported.importedAt
      && record.body.balance.file == imported.file
    {
      _ = try store.removeRecord(kind: records.name, id: record.id)
    }
  }
}
