import ExpenseStore
import Foundation
import GRDB
import GRDBSQLite

/// How an import stores descriptions (schema v11, `migrateInlineTexts`): a description the
/// dictionary `descriptionText` holds, or one seen again within the import's recent rows, is
/// stored as its dictionary id; any other is stored in the row itself, as a BLOB of its UTF-8
/// bytes.
///
/// Why: about a third of a bank's descriptions are seen once (store and terminal numbers,
/// mandate and reference ids, dates). In the dictionary each of them cost its bytes twice (the
/// table and its UNIQUE index), an id in the row and two B-tree inserts, and the import kept
/// every distinct text in memory: a bank-shaped 1M-row file stored 289k entries (35 of its
/// 72 MB) and held 111 MiB. Stored inline, a text seen once costs its bytes once, as in any
/// table; the dictionary keeps the texts that repeat, where an id pays for itself.
///
/// Memory is bounded whatever the file: a direct-mapped window of `slotCount` recent texts
/// (each with its id, or "seen once, stored inline"), and a Bloom filter of the dictionary's
/// texts (`bitsPerEntry` bits an entry), so a text that is in neither costs no query. A text
/// the window has forgotten is stored inline again: never wrong, only less compact. Texts are
/// compared byte for byte, never by `String` equality (NFC and NFD stay apart, as the store
/// keeps them). Lives inside the import's transaction, like the other dictionaries.
final class DescriptionTexts {
  static let slotBits = 14
  static let slotCount = 1 << slotBits
  /// Texts longer than this skip the window (the dictionary is still asked).
  static let maxLength = 120
  static let bitsPerEntry = 16

  /// Per slot: the text's hash (0: empty), its id (0: seen once, stored inline), its length
  /// and bytes.
  private let hashes = UnsafeMutablePointer<UInt64>.allocate(capacity: slotCount)
  private let ids = UnsafeMutablePointer<Int64>.allocate(capacity: slotCount)
  private let lengths = UnsafeMutablePointer<Int32>.allocate(capacity: slotCount)
  private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: slotCount * maxLength)
  /// The dictionary's texts by hash, read at the first text asked about (a re-import of a file
  /// already stored asks about none).
  private var known: BloomFilter?
  private let find: Statement
  private let add: Statement
  private let all: Statement

  init(_ db: Database) throws {
    hashes.initialize(repeating: 0, count: Self.slotCount)
    ids.initialize(repeating: 0, count: Self.slotCount)
    lengths.initialize(repeating: 0, count: Self.slotCount)
    find = try db.makeStatement(sql: "SELECT id FROM descriptionText WHERE text = ?")
    add = try db.makeStatement(sql: "INSERT INTO descriptionText (text) VALUES (?)")
    all = try db.makeStatement(sql: "SELECT text, (SELECT COUNT(*) FROM descriptionText) FROM descriptionText")
  }

  deinit {
    hashes.deallocate()
    ids.deallocate()
    lengths.deallocate()
    bytes.deallocate()
  }

  /// The dictionary id to store for the description whose UTF-8 is `p`, or nil to store the
  /// text inline; `hash` is its `TextHash` (the batch's, computed on the parse thread).
  func id(of p: UnsafeBufferPointer<UInt8>, hash: UInt64, _ db: Database) throws -> Int64? {
    let slot = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
    let windowed = p.count <= Self.maxLength
    if windowed && holds(slot, hash, p) {
      if ids[slot] != 0 { return ids[slot] }
      // Seen again: from now on, by id.
      let id = try dictionaryID(of: p, hash, db)
      ids[slot] = id
      return id
    }
    var id: Int64 = 0
    if try mayBeKnown(hash, db), let found = try stored(p, db) { id = found }
    if windowed {
      hashes[slot] = hash
      ids[slot] = id
      lengths[slot] = Int32(p.count)
      if let base = p.baseAddress { (bytes + slot * Self.maxLength).update(from: base, count: p.count) }
    }
    return id == 0 ? nil : id
  }

  private func holds(_ slot: Int, _ hash: UInt64, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
    guard hashes[slot] == hash, Int(lengths[slot]) == p.count else { return false }
    guard let base = p.baseAddress else { return true }
    return memcmp(bytes + slot * Self.maxLength, base, p.count) == 0
  }

  /// The id of `text` in the dictionary, added when it is not there.
  private func dictionaryID(of p: UnsafeBufferPointer<UInt8>, _ hash: UInt64, _ db: Database) throws -> Int64 {
    if try mayBeKnown(hash, db), let found = try stored(p, db) { return found }
    let statement = add.sqliteStatement
    let step = Self.bind(p, to: statement) == SQLITE_OK ? sqlite3_step(statement) : SQLITE_MISUSE
    sqlite3_reset(statement)
    sqlite3_clear_bindings(statement)
    guard step == SQLITE_DONE else { throw ImportBatch.error(db) }
    known?.add(hash)
    return sqlite3_last_insert_rowid(db.sqliteConnection)
  }

  /// The dictionary's id of the text `p`, if it holds it. The statements are run on SQLite's
  /// own API, the text bound from the row's bytes: GRDB's arguments would box every text.
  private func stored(_ p: UnsafeBufferPointer<UInt8>, _ db: Database) throws -> Int64? {
    let statement = find.sqliteStatement
    var step = Self.bind(p, to: statement) == SQLITE_OK ? sqlite3_step(statement) : SQLITE_MISUSE
    let id = step == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : nil
    if step == SQLITE_ROW { step = SQLITE_DONE }
    sqlite3_reset(statement)
    sqlite3_clear_bindings(statement)
    guard step == SQLITE_DONE else { throw ImportBatch.error(db) }
    return id
  }

  /// Binds `p` as TEXT (as GRDB binds a `String`: the dictionary's texts are TEXT) to the first
  /// parameter, for one step; an empty text is bound as an empty TEXT, never NULL.
  private static func bind(_ p: UnsafeBufferPointer<UInt8>, to statement: SQLiteStatement) -> Int32 {
    // An empty buffer may have no address: a static empty string's then, which lives forever.
    let start = UnsafeRawPointer(p.baseAddress ?? ("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    return sqlite3_bind_text(statement, 1, start, Int32(p.count), nil)
  }

  /// Whether the dictionary may hold a text of this hash (read in place: a copy of the filter
  /// would retain its words for every row asked about).
  private func mayBeKnown(_ hash: UInt64, _ db: Database) throws -> Bool {
    if known == nil { known = try loadKnownTexts(db) }
    return known?.mayContain(hash) ?? true
  }

  private func loadKnownTexts(_ db: Database) throws -> BloomFilter {
    var filter: BloomFilter?
    let statement = all.sqliteStatement
    defer { sqlite3_reset(statement) }
    var step = sqlite3_step(statement)
    while step == SQLITE_ROW {
      if filter == nil { filter = BloomFilter(entries: Int(sqlite3_column_int64(statement, 1))) }
      let start = sqlite3_column_blob(statement, 0)
      let count = Int(sqlite3_column_bytes(statement, 0))
      filter?.add(TextHash.of(UnsafeBufferPointer(start: start?.assumingMemoryBound(to: UInt8.self), count: count)))
      step = sqlite3_step(statement)
    }
    guard step == SQLITE_DONE else { throw ImportBatch.error(db) }
    return filter ?? BloomFilter(entries: 0)
  }

}

/// A set of hashes that may answer "maybe" for one it does not hold, never "no" for one it
/// does: three bits a hash in a table of at least `DescriptionTexts.bitsPerEntry` bits per
/// entry it was sized for (about 0.3% false "maybe"s at that load, each one query), and at
/// most 16 MiB (past 4 million texts the "maybe"s grow, which costs queries, never a wrong
/// answer).
struct BloomFilter {
  private var words: [UInt64]
  private let mask: UInt64

  init(entries: Int) {
    var bits = 1 << 20
    while bits < entries.multipliedReportingOverflow(by: DescriptionTexts.bitsPerEntry * 2).partialValue,
      bits < 1 << 27
    {
      bits <<= 1
    }
    words = [UInt64](repeating: 0, count: bits / 64)
    mask = UInt64(bits - 1)
  }

  private func positions(_ hash: UInt64) -> (UInt64, UInt64, UInt64) {
    (hash & mask, (hash &>> 21 | hash &<< 43) & mask, (hash &>> 42 | hash &<< 22) & mask)
  }

  mutating func add(_ hash: UInt64) {
    let (a, b, c) = positions(hash)
    words[Int(a >> 6)] |= 1 << (a & 63)
    words[Int(b >> 6)] |= 1 << (b & 63)
    words[Int(c >> 6)] |= 1 << (c & 63)
  }

  func mayContain(_ hash: UInt64) -> Bool {
    let (a, b, c) = positions(hash)
    return words[Int(a >> 6)] & (1 << (a & 63)) != 0 && words[Int(b >> 6)] & (1 << (b & 63)) != 0
      && words[Int(c >> 6)] & (1 << (c & 63)) != 0
  }
}
