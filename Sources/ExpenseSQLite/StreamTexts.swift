import ExpenseCore
import ExpenseStore
import GRDB
import GRDBSQLite

/// The texts a streaming read's rows point to (the v6 dictionaries `currencyCode`,
/// `descriptionText`, `categoryName`, and `importFile`'s names), read once per snapshot, so
/// that a listed row costs no join.
///
/// Why: written as joins, the three dictionary lookups and the file's name were each a B-tree
/// search per row, about a third of SQLite's time in a million-row listing (`sqlite3` alone
/// printed the rows with the joins in 2.1 s, with the ids in 1.4 s). The dictionaries are small
/// next to the rows (they keep only texts that repeat, schema v11: 41,422 descriptions in a
/// bank-shaped million rows), so they are held by id in one arena; the rows are then read from
/// `expenseRow` alone, a description kept in its row read where it lies.
///
/// When it is not used (`load` answers nil, and the read keeps its joins): a table past
/// `maximumEntries` or the arena past `maximumBytes` (memory stays bounded whatever the file:
/// a file of all-different descriptions keeps the joins), ids that are not dense (entries are
/// never deleted, so rowids handed out in order are), or any entry the fast reader would not
/// take as it is (not TEXT, not valid UTF-8, an unknown currency code). A row whose id has no
/// entry is read the general way (`ExpenseRowReader` returns false), so a damaged file reads
/// exactly as through the joins.
final class StreamTexts {
  static let maximumEntries = 262_144
  static let maximumBytes = 16 << 20

  /// One table's texts: `spans[id]` is the entry's offset in the arena and its length, packed
  /// as `offset << 32 | length`, or -1 where the id has no entry.
  struct Table {
    var spans: [Int64] = []
  }

  private let arena: UnsafeMutableBufferPointer<UInt8>
  private let descriptions: Table
  private let categories: Table
  private let files: Table
  /// `currencies[id]`: the currency of each `currencyCode` entry, nil where there is none.
  private let currencies: [Currency?]

  private init(
    arena: UnsafeMutableBufferPointer<UInt8>, descriptions: Table, categories: Table, files: Table,
    currencies: [Currency?]
  ) {
    self.arena = arena
    self.descriptions = descriptions
    self.categories = categories
    self.files = files
    self.currencies = currencies
  }

  deinit { arena.deallocate() }

  /// The texts of the database as `db` sees it, or nil when a read should keep its joins.
  static func load(_ db: Database) throws -> StreamTexts? {
    var bytes: [UInt8] = []
    guard let descriptions = try table(db, "SELECT id, text FROM descriptionText", into: &bytes),
      let categories = try table(db, "SELECT id, name FROM categoryName", into: &bytes),
      let files = try table(db, "SELECT id, name FROM importFile", into: &bytes)
    else { return nil }
    var codes: [UInt8] = []
    guard let currencyTable = try table(db, "SELECT id, code FROM currencyCode", into: &codes) else { return nil }
    var currencies: [Currency?] = []
    currencies.reserveCapacity(currencyTable.spans.count)
    for span in currencyTable.spans {
      guard span >= 0 else {
        currencies.append(nil)
        continue
      }
      let start = Int(span >> 32)
      let code = codes[start..<start + Int(span & 0xFFFF_FFFF)]
      guard let currency = Currency(code: String(decoding: code, as: UTF8.self)) else { return nil }
      currencies.append(currency)
    }
    let arena = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
    _ = arena.initialize(from: bytes)
    return StreamTexts(
      arena: arena, descriptions: descriptions, categories: categories, files: files, currencies: currencies)
  }

  /// Reads `sql`'s (id, text) rows into `bytes`; nil when the table does not qualify.
  private static func table(_ db: Database, _ sql: String, into bytes: inout [UInt8]) throws -> Table? {
    let statement = try db.makeStatement(sql: sql)
    let sqlite = statement.sqliteStatement
    let rows = try Row.fetchCursor(statement)
    var table = Table()
    var count = 0
    while try rows.next() != nil {
      count += 1
      guard count <= maximumEntries, let idValue = sqlite3_column_value(sqlite, 0),
        let textValue = sqlite3_column_value(sqlite, 1), sqlite3_value_type(idValue) == SQLITE_INTEGER
      else { return nil }
      let id = sqlite3_value_int64(idValue)
      // Dense ids only: a table of n entries has ids below 2n + 1024.
      guard id >= 0, id < Int64(2 * maximumEntries + 1024) else { return nil }
      guard let text = ExpenseRowReader.text(textValue) else { return nil }
      guard bytes.count + text.count <= maximumBytes else { return nil }
      if table.spans.count <= Int(id) {
        table.spans.append(contentsOf: repeatElement(-1, count: Int(id) + 1 - table.spans.count))
      }
      table.spans[Int(id)] = Int64(bytes.count) << 32 | Int64(text.count)
      bytes.append(contentsOf: text)
    }
    guard table.spans.count <= 2 * count + 1024 else { return nil }
    return table
  }

  private func text(_ table: Table, _ id: Int64) -> UnsafeBufferPointer<UInt8>? {
    guard id >= 0, id < Int64(table.spans.count) else { return nil }
    let span = table.spans[Int(id)]
    guard span >= 0, let base = arena.baseAddress else { return nil }
    return UnsafeBufferPointer(start: base + Int(span >> 32), count: Int(span & 0xFFFF_FFFF))
  }

  func description(_ id: Int64) -> UnsafeBufferPointer<UInt8>? { text(descriptions, id) }
  func category(_ id: Int64) -> UnsafeBufferPointer<UInt8>? { text(categories, id) }
  func file(_ id: Int64) -> UnsafeBufferPointer<UInt8>? { text(files, id) }
  func currency(_ id: Int64) -> Currency? {
    guard id >= 0, id < Int64(currencies.count) else { return nil }
    return currencies[Int(id)]
  }
}
