import ExpenseStore
import Foundation
import GRDB
import GRDBSQLite

/// One of the v6 dictionaries (`currencyCode`, `descriptionText`, `categoryName`) as the import
/// writes it: each distinct text's id, looked up or added once per import and then kept in
/// memory, so a row costs one hash of its text and no query.
///
/// Keyed by the text's bytes, never by `String` equality: Swift finds "Café" in NFC and in NFD
/// equal, SQLite (and the user's file) do not, and the store keeps every text byte for byte.
/// Lives inside the import's transaction: a rolled-back import (a dry run, an error) takes its
/// new entries with it, and the next import starts from an empty cache. A class: the batches
/// share one cache, never a copy of it.
final class TextDictionary {
  private var ids: [TextBytes: Int64] = [:]
  private let find: Statement
  private let add: Statement

  init(_ db: Database, table: String, column: String) throws {
    find = try db.makeStatement(sql: "SELECT id FROM \(table) WHERE \(column) = ?")
    add = try db.makeStatement(sql: "INSERT INTO \(table) (\(column)) VALUES (?)")
  }

  /// The id of `text`, adding it to the table when it is new.
  func id(of text: String, _ db: Database) throws -> Int64 {
    let key = TextBytes(text)
    if let id = ids[key] { return id }
    let id: Int64
    if let found = try Int64.fetchOne(find, arguments: [text]) {
      id = found
    } else {
      try add.execute(arguments: [text])
      id = db.lastInsertedRowID
    }
    ids[key] = id
    return id
  }
}

/// A `String` compared and hashed by its UTF-8 bytes.
struct TextBytes: Hashable {
  let text: String
  init(_ text: String) { self.text = text }
  static func == (a: TextBytes, b: TextBytes) -> Bool {
    guard a.text.utf8.count == b.text.utf8.count else { return false }
    var (x, y) = (a.text, b.text)
    return x.withUTF8 { x in
      y.withUTF8 { y in
        guard let p = x.baseAddress, let q = y.baseAddress else { return x.count == y.count }
        return memcmp(p, q, x.count) == 0
      }
    }
  }
  func hash(into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}

/// The three dictionaries an import writes, for `ImportBatch.resolveTexts`.
struct ImportTexts {
  let currencies: TextDictionary
  let descriptions: DescriptionTexts
  let categories: TextDictionary

  init(_ db: Database) throws {
    currencies = try TextDictionary(db, table: "currencyCode", column: "code")
    descriptions = try DescriptionTexts(db)
    categories = try TextDictionary(db, table: "categoryName", column: "name")
  }
}
