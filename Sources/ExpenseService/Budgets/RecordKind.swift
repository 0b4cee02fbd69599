import ExpenseCore
import ExpenseStore
import Foundation

/// One kind of the service's records (`StoredRecord`) with a `Codable` body: budget moves,
/// goals, statement balances. The store keeps the body as JSON and never reads it; this is the one place that
/// writes and reads it.
struct RecordKind<Body: Codable> {
  let name: String

  /// Every record of this kind, by id. A body this version cannot read fails the call as an
  /// unreadable value naming the record: never skipped without a word.
  func load(_ store: any LedgerStore) throws -> [(id: Int64, body: Body)] {
    try store.records(kind: name).map { record in
      do {
        return (record.id, try JSONDecoder().decode(Body.self, from: Data(record.body.utf8)))
      } catch {
        throw StoreError.unreadable(
          path: store.filePath ?? "the database", detail: "\(name) #\(record.id) cannot be read")
      }
    }
  }

  /// Stores `body` as a new record of this kind; returns its id (never one given before).
  func add(_ body: Body, to store: any LedgerStore) throws -> Int64 {
    try store.addRecord(kind: name, body: try encoded(body)).id
  }

  /// The JSON a record of this kind keeps: what an import's writer stores in its transaction.
  func encoded(_ body: Body) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(body), as: UTF8.self)
  }
}
