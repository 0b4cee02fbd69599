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
  /// The last text asked about in each of `recentCount` slots, by a hash of its bytes, with its
  /// id: a file's categories are few, so nearly every row is answered here, without the
  /// dictionary's hashing (SipHash of the bytes, and a copy of the string to read them).
  /// Kept in memory of their own: arrays held by a class pay an exclusivity check per access.
  private static let recentCount = 256
  private let recentHashes: UnsafeMutablePointer<UInt64>
  private let recentTexts: UnsafeMutablePointer<String>
  private let recentIDs: UnsafeMutablePointer<Int64>

  init(_ db: Database, table: String, column: String) throws {
    find = try db.makeStatement(sql: "SELECT id FROM \(table) WHERE \(column) = ?")
    add = try db.makeStatement(sql: "INSERT INTO \(table) (\(column)) VALUES (?)")
    // Allocated once nothing can throw: `deinit` frees them.
    recentHashes = .allocate(capacity: Self.recentCount)
    recentTexts = .allocate(capacity: Self.recentCount)
    recentIDs = .allocate(capacity: Self.recentCount)
    recentHashes.initialize(repeating: 0, count: Self.recentCount)
    recentTexts.initialize(repeating: "", count: Self.recentCount)
    recentIDs.initialize(repeating: 0, count: Self.recentCount)
  }

  deinit {
    recentHashes.deallocate()
    recentTexts.deinitialize(count: Self.recentCount)
    recentTexts.deallocate()
    recentIDs.deallocate()
  }

  /// The id of `text`, adding it to the table when it is new.
  func id(of text: String, _ db: Database) throws -> Int64 {
    // 0 for a string whose bytes are not in place (bridged): it skips the recent slots.
    let hash = text.utf8.withContiguousStorageIfAvailable { TextHash.of($0) } ?? 0
    let slot = Int(truncatingIfNeeded: hash) & (Self.recentCount - 1)
    if hash != 0 && recentHashes[slot] == hash && TextBytes.same(recentTexts[slot], text) { return recentIDs[slot] }
    let key = TextBytes(text)
    let id: Int64
    if let known = ids[key] {
      id = known
    } else if let found = try Int64.fetchOne(find, arguments: [text]) {
      id = found
    } else {
      try add.execute(arguments: [text])
      id = db.lastInsertedRowID
    }
    ids[key] = id
    if hash != 0 {
      recentHashes[slot] = hash
      recentTexts[slot] = text
      recentIDs[slot] = id
    }
    return id
  }
}

/// A `String` compared and hashed by its UTF-8 bytes.
struct TextBytes: Hashable {
  let text: String
  init(_ text: String) { self.text = text }
  static func == (a: TextBytes, b: TextBytes) -> Bool { same(a.text, b.text) }

  /// Whether `a` and `b` hold the same bytes (read in place when both are native strings).
  static func same(_ a: String, _ b: String) -> Bool {
    let inPlace = a.utf8.withContiguousStorageIfAvailable { x in
      b.utf8.withContiguousStorageIfAvailable { y in
        guard x.count == y.count else { return false }
        guard let p = x.baseAddress, let q = y.baseAddress else { return true }
        return memcmp(p, q, x.count) == 0
      }
    }
    if let inPlace, let answer = inPlace { return answer }
    guard a.utf8.count == b.utf8.count else { return false }
    var (x, y) = (a, b)
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
