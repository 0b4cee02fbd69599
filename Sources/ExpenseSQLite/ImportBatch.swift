import ExpenseCore
import ExpenseStore
import GRDB
import GRDBSQLite

/// The writer's side of one `PreparedBatch`: find the keys already stored, drop in-file twins,
/// number the new rows and insert them.
///
/// A value type on purpose: the session swaps it out into a local for the length of a write, so
/// the per-row loops touch only local storage (no exclusivity checks or retain traffic that
/// class properties cost on every access) and every buffer keeps its capacity between batches.
struct ImportBatch {
  var batch = PreparedBatch(rows: [], fileOrder: [], totals: MonthTotalDeltas(), totalKeys: [])
  /// By index in `batch.rows` (key order).
  var isNew: [Bool] = []
  /// In-file twins kept for the summary: row index -> index of the row it repeats.
  var twins: [Int: Int] = [:]
  var ids: [Int64] = []
  /// The new rows' dictionary ids (`resolveTexts`), by index in `batch.rows`; 0 = NULL category,
  /// or a description stored inline (`DescriptionTexts`).
  var currencyIds: [Int64] = []
  var descriptionIds: [Int64] = []
  var categoryIds: [Int64] = []
  var stored: [Int64] = []
  /// Text bytes of one statement's rows, bound SQLITE_STATIC.
  var arena: [UInt8] = []

  /// Marks which rows are new: not stored (see `markStored`) and not a repeat of an earlier row
  /// of the batch.
  mutating func classify(
    _ db: Database, inRange: SQLiteStatement, exists: SQLiteStatement, explainLimit: Int
  ) throws {
    isNew.removeAll(keepingCapacity: true)
    isNew.append(contentsOf: repeatElement(true, count: batch.rows.count))
    try markStored(db, inRange: inRange, exists: exists)
    try markStoredFormerly(db, exists: exists)
    twins.removeAll(keepingCapacity: true)
    for i in batch.rows.indices.dropFirst() where batch.rows[i].key == batch.rows[i - 1].key {
      isNew[i] = false
      if twins.count < explainLimit { twins[i] = i - 1 }
    }
  }

  /// Marks rows whose key is already stored: one range read over the batch's keys merged with
  /// the sorted batch, or point lookups when that range holds too many other rows (a file not
  /// in date order).
  mutating func markStored(_ db: Database, inRange: SQLiteStatement, exists: SQLiteStatement) throws {
    guard let low = batch.rows.first?.key, let high = batch.rows.last?.key else { return }
    let limit = 4 * batch.rows.count + 64
    sqlite3_bind_int64(inRange, 1, low)
    sqlite3_bind_int64(inRange, 2, high)
    sqlite3_bind_int64(inRange, 3, Int64(limit))
    stored.removeAll(keepingCapacity: true)
    var step = sqlite3_step(inRange)
    while step == SQLITE_ROW {
      stored.append(sqlite3_column_int64(inRange, 0))
      step = sqlite3_step(inRange)
    }
    sqlite3_reset(inRange)
    guard step == SQLITE_DONE else { throw ImportBatch.error(db) }
    if stored.isEmpty { return }
    if stored.count < limit {
      var s = 0
      for index in batch.rows.indices {
        let key = batch.rows[index].key
        while s < stored.count && stored[s] < key { s += 1 }
        if s < stored.count && stored[s] == key { isNew[index] = false }
      }
      return
    }
    for index in batch.rows.indices {
      sqlite3_bind_int64(exists, 1, batch.rows[index].key)
      let found = sqlite3_step(exists)
      sqlite3_reset(exists)
      guard found == SQLITE_ROW || found == SQLITE_DONE else { throw ImportBatch.error(db) }
      if found == SQLITE_ROW { isNew[index] = false }
    }
  }

  /// Marks rows stored under the key an earlier version gave them (`ImportedRow.formerKey`):
  /// one lookup per such row (only card payments that version dated by their booking).
  mutating func markStoredFormerly(_ db: Database, exists: SQLiteStatement) throws {
    guard batch.hasFormerKeys else { return }
    for index in batch.rows.indices where isNew[index] {
      guard let former = batch.rows[index].formerKey else { continue }
      sqlite3_bind_int64(exists, 1, former)
      let found = sqlite3_step(exists)
      sqlite3_reset(exists)
      guard found == SQLITE_ROW || found == SQLITE_DONE else { throw ImportBatch.error(db) }
      if found == SQLITE_ROW { isNew[index] = false }
    }
  }

  /// Gives the new rows their ids in file order and takes the others out of the batch's sums.
  mutating func number(from next: inout Int64) {
    ids.removeAll(keepingCapacity: true)
    ids.append(contentsOf: repeatElement(0, count: batch.rows.count))
    for position in batch.fileOrder {
      let index = Int(position)
      if isNew[index] {
        ids[index] = next
        next += 1
      }
    }
    guard !isNew.allSatisfy({ $0 }) else { return }
    guard isNew.contains(true) else {
      // Every row already stored (a statement imported again): nothing of the batch counts.
      batch.totals = MonthTotalDeltas()
      return
    }
    for index in batch.rows.indices where !isNew[index] {
      // Fields read in place: binding the row would copy it (a retain per text).
      if index < batch.totalKeys.count {
        batch.totals.remove(
          key: batch.totalKeys[index], minor: batch.rows[index].amount.minor, day: batch.rows[index].date.day)
      } else {
        batch.totals.remove(
          date: batch.rows[index].date, amount: batch.rows[index].amount, category: batch.rows[index].category)
      }
    }
  }

  /// Finds (or adds) the dictionary ids of the new rows' currency, description and category.
  mutating func resolveTexts(_ db: Database, _ texts: ImportTexts) throws {
    let count = batch.rows.count
    // The id lists are taken out of `self` for the loop, so that it reads the rows in place
    // (a row read through the array is copied: one retain per text of the row, per row).
    var currencyIds = [Int64]()
    var descriptionIds = [Int64]()
    var categoryIds = [Int64]()
    swap(&currencyIds, &self.currencyIds)
    swap(&descriptionIds, &self.descriptionIds)
    swap(&categoryIds, &self.categoryIds)
    defer {
      swap(&currencyIds, &self.currencyIds)
      swap(&descriptionIds, &self.descriptionIds)
      swap(&categoryIds, &self.categoryIds)
    }
    currencyIds.removeAll(keepingCapacity: true)
    descriptionIds.removeAll(keepingCapacity: true)
    categoryIds.removeAll(keepingCapacity: true)
    currencyIds.append(contentsOf: repeatElement(0, count: count))
    descriptionIds.append(contentsOf: repeatElement(0, count: count))
    categoryIds.append(contentsOf: repeatElement(0, count: count))
    try batch.descriptionBytes.withUnsafeBufferPointer { described in
      try resolveTexts(db, texts, count, described, &currencyIds, &descriptionIds, &categoryIds)
    }
  }

  /// `resolveTexts`' loop, `described` the batch's copy of its descriptions
  /// (`PreparedBatch.descriptionBytes`).
  private mutating func resolveTexts(
    _ db: Database, _ texts: ImportTexts, _ count: Int, _ described: UnsafeBufferPointer<UInt8>,
    _ currencyIds: inout [Int64], _ descriptionIds: inout [Int64], _ categoryIds: inout [Int64]
  ) throws {
    // Each row's place in the batch's sums (`PreparedBatch.totalKeys`) holds its currency's
    // code and its category's number among the batch's categories: each distinct one is looked
    // up once a batch, and a row's texts are not touched (a String read out of a row is a retain
    // and a release).
    var categoryByNumber = [Int64](repeating: -1, count: batch.totals.categories.count)
    var lastCode: Int64 = -1
    var lastCurrency: Int64 = 0
    try batch.rows.withUnsafeBufferPointer { rows in
      for index in 0..<count where isNew[index] {
        let totalKey = batch.totalKeys[index]
        let code = totalKey >> 22 & 0xFF_FFFF
        if code == lastCode {
          currencyIds[index] = lastCurrency
        } else {
          // Currency codes are ASCII (validated): their 3 bytes are the code in the key.
          lastCurrency = try texts.currencies.id(of: rows[index].amount.currency.code, db)
          lastCode = code
          currencyIds[index] = lastCurrency
        }
        let text = UnsafeBufferPointer(rebasing: described[batch.descriptionRange(index)])
        descriptionIds[index] =
          try texts.descriptions.id(of: text, hash: batch.descriptionHashes[index], db) ?? 0
        let number = Int(totalKey & 0x3F_FFFF)
        if number > 0 && number < categoryByNumber.count {
          if categoryByNumber[number] < 0 {
            categoryByNumber[number] = try texts.categories.id(of: batch.totals.categories[number], db)
          }
          categoryIds[index] = categoryByNumber[number]
        } else if let category = rows[index].category {
          // Uncategorized, or a category cell that is empty (both number 0 in the sums).
          categoryIds[index] = try texts.categories.id(of: category, db)
        }
      }
    }
  }

  /// Inserts the new rows in key order, each time with the largest statement of `inserts`
  /// (sizes descending, the last of 1 row) that the rows left fill. Each row has 10 parameters:
  /// key, id, date, amountMinor, currencyId, descriptionId (the dictionary's id, or the text's
  /// bytes as a BLOB), categoryId, account, sourceLine, categorySource (the file id is part of
  /// the SQL).
  mutating func insert(_ db: Database, _ inserts: [(rows: Int, statement: SQLiteStatement)]) throws {
    var start = 0
    var newSlots: [Int] = []
    newSlots.reserveCapacity(batch.rows.count)
    for index in batch.rows.indices where isNew[index] { newSlots.append(index) }
    while start < newSlots.count {
      let (count, statement) = inserts.first { $0.rows <= newSlots.count - start }!
      var needed = 0
      for slot in newSlots[start..<start + count] { needed += 16 + (batch.rows[slot].account?.utf8.count ?? 0) }
      if arena.count < needed { arena = [UInt8](repeating: 0, count: needed * 2) }
      let slots = newSlots[start..<start + count]
      let texts = (currencyIds, descriptionIds, categoryIds)
      let step = batch.rows.withUnsafeBufferPointer { rows in
        ids.withUnsafeBufferPointer { ids in
          arena.withUnsafeMutableBufferPointer { arena in
            batch.descriptionBytes.withUnsafeBufferPointer { described in
              ImportBatch.bindAndStep(statement, slots, rows, ids, texts, arena, (described, batch))
            }
          }
        }
      }
      guard step == SQLITE_DONE else { throw ImportBatch.error(db) }
      start += count
    }
  }

  /// Binds the rows at `slots` (10 parameters each), texts copied into `arena` (or, for the
  /// descriptions, read from the batch's copy, `described`) and bound SQLITE_STATIC, runs the
  /// statement, and clears the bindings before the arena is released. The date is NULL when it
  /// is the key's day (always, for a date the store accepts).
  static func bindAndStep(
    _ statement: SQLiteStatement, _ slots: ArraySlice<Int>, _ rows: UnsafeBufferPointer<ImportedRow>,
    _ ids: UnsafeBufferPointer<Int64>, _ texts: (currency: [Int64], description: [Int64], category: [Int64]),
    _ arena: UnsafeMutableBufferPointer<UInt8>, _ described: (bytes: UnsafeBufferPointer<UInt8>, batch: PreparedBatch)
  ) -> Int32 {
    var offset = 0
    var code = SQLITE_OK
    let emptyText = UnsafeRawPointer(("" as StaticString).utf8Start)
    /// `text`'s UTF-8 bytes copied into the arena: where they start and how many.
    func place(_ text: String) -> (UnsafeMutablePointer<UInt8>, Int32) {
      let start = arena.baseAddress! + offset
      let written = UnsafeMutableBufferPointer(rebasing: arena[offset...]).initialize(from: text.utf8).1
      offset += written
      return (start, Int32(written))
    }
    // Every parameter is NULL here (a new statement's, or cleared by the last run's
    // `sqlite3_clear_bindings`), so a NULL is left unbound: a call less per NULL of every row.
    func bind(_ parameter: Int32, _ text: String?) {
      guard let text else { return }
      let (start, count) = place(text)
      code |= sqlite3_bind_text(
        statement, parameter, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), count, nil)
    }
    var parameter: Int32 = 0
    for slot in slots {
      code |= sqlite3_bind_int64(statement, parameter + 1, rows[slot].key)
      code |= sqlite3_bind_int64(statement, parameter + 2, ids[slot])
      // Compared as days (unmasked: a date far out of range is never taken for the key's day);
      // making a date of the key's day costs more than counting the row's days.
      if ExpenseKey(rawValue: rows[slot].key).day - ExpenseKey.dayBias != Int64(rows[slot].date.daysSinceEpoch) {
        let date = arena.baseAddress! + offset
        writeDate(rows[slot].date, to: date)
        offset += 10
        code |= sqlite3_bind_text(
          statement, parameter + 3, UnsafeRawPointer(date).assumingMemoryBound(to: CChar.self), 10, nil)
      }
      code |= sqlite3_bind_int64(statement, parameter + 4, rows[slot].amount.minor)
      code |= sqlite3_bind_int64(statement, parameter + 5, texts.currency[slot])
      if texts.description[slot] == 0 {
        // Stored inline: the UTF-8 bytes as a BLOB, which no column affinity converts.
        let range = described.batch.descriptionRange(slot)
        // An empty text bound from a static address: a nil one would bind NULL.
        var start = emptyText
        if !range.isEmpty, let base = described.bytes.baseAddress { start = UnsafeRawPointer(base + range.lowerBound) }
        code |= sqlite3_bind_blob(statement, parameter + 6, start, Int32(clamping: range.count), nil)
      } else {
        code |= sqlite3_bind_int64(statement, parameter + 6, texts.description[slot])
      }
      if texts.category[slot] != 0 { code |= sqlite3_bind_int64(statement, parameter + 7, texts.category[slot]) }
      bind(parameter + 8, rows[slot].account)
      code |= sqlite3_bind_int64(statement, parameter + 9, Int64(rows[slot].line))
      code |= sqlite3_bind_int64(statement, parameter + 10, Int64(rows[slot].categorySource.rawValue))
      parameter += 10
    }
    let step = code == SQLITE_OK ? sqlite3_step(statement) : code
    sqlite3_reset(statement)
    sqlite3_clear_bindings(statement)  // no pointer into the arena outlives the borrow
    return step
  }

  /// Writes `YYYY-MM-DD` (10 bytes).
  static func writeDate(_ date: CivilDate, to p: UnsafeMutablePointer<UInt8>) {
    let y = date.year
    p[0] = UInt8(48 + y / 1000 % 10)
    p[1] = UInt8(48 + y / 100 % 10)
    p[2] = UInt8(48 + y / 10 % 10)
    p[3] = UInt8(48 + y % 10)
    p[4] = 45
    p[5] = UInt8(48 + date.month / 10)
    p[6] = UInt8(48 + date.month % 10)
    p[7] = 45
    p[8] = UInt8(48 + date.day / 10)
    p[9] = UInt8(48 + date.day % 10)
  }

  /// The connection's last error as GRDB reports it, with its extended code, so that
  /// `AppDatabase.map` names the database and picks the same outcome as for any statement (a
  /// full disk or a file-size limit 74, damage 65), never a bare "database error".
  static func error(_ db: Database) -> DatabaseError {
    let connection = db.sqliteConnection
    return DatabaseError(
      resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
      message: sqlite3_errmsg(connection).map { String(cString: $0) })
  }

}
