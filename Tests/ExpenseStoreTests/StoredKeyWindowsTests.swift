import ExpenseCore
import Foundation
import GRDB
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// The keys an import's parse thread asks (`ImportSession.storedKeysBefore`): exactly the keys
/// stored when the writer began, from a second connection whose snapshot the import's own
/// writes never reach; none where there is nothing to ask or no second connection.
@Suite final class StoredKeyWindowsTests {
  private var folders: [String] = []
  deinit { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }

  func database() throws -> AppDatabase {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-keys-\(UUID().uuidString)")
    folders.append(folder.path)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return try AppDatabase(path: folder.appendingPathComponent("db.sqlite").path)
  }

  /// `count` rows over about 300 days from 2025-01-01, each with its own fingerprint.
  func fill(_ db: AppDatabase, count: Int, seed: UInt64) throws {
    let first = try CivilDate.parse("2025-01-01")
    try db.importRows(sourceFile: "rows-\(seed).csv") { feeder in
      for i in 0..<count {
        try feeder.insert(
          date: first.adding(days: (i * 7) % 300), amount: Money(minor: -100, currency: .usd),
          description: "row \(i)", category: nil, account: nil, fingerprintHash: seed &+ UInt64(i) &* 0x9E37_79B9,
          line: i + 2)
      }
    }
  }

  func keys(_ db: AppDatabase) throws -> [Int64] {
    try db.read { db in try Int64.fetchAll(db, sql: "SELECT key FROM expenseRow ORDER BY key") }
  }

  @Test func theKeysAreTheOnesStoredWhenTheWriterBegan() throws {
    let db = try database()
    try fill(db, count: 3_000, seed: 1)
    let stored = try keys(db)
    #expect(stored.count == 3_000)
    let storedSet = Set(stored)
    let later = try CivilDate.parse("2025-06-01")
    try db.importRows(sourceFile: "new.csv", dryRun: false, explainLimit: 0, importedAt: nil) { writer in
      let asked = try #require(try writer.storedKeysBefore())
      #expect(stored.allSatisfy { asked.contains($0) })
      // Keys next to stored ones, and outside the stored span, are not.
      let near = stored.flatMap { [$0 &+ 1, $0 &- 1] }.filter { !storedSet.contains($0) }
      #expect(!near.contains { asked.contains($0) })
      #expect(!asked.contains(stored[0] - (1 << 43)))
      // A row this import writes is never among them: the snapshot is the writer's start.
      var batcher = ImportBatcher()
      let row = ImportedRow(
        line: 2, date: later, amount: Money(minor: -1, currency: .usd), description: "new", category: nil,
        account: nil, fingerprintHash: 42)
      _ = try batcher.add(row)
      if let batch = try batcher.finish() { try writer.write(batch) }
      #expect(writer.inserted == 1)
      #expect(!asked.contains(row.key))
      writer.closeStoredKeys()
      #expect(!asked.contains(stored[0]))  // closed: unsure, never a wrong yes
    }
    #expect(try keys(db).count == 3_001)
  }

  /// Windows read after the import wrote rows, by the parse thread's reader or read ahead by
  /// the other (in either direction, so read again once dropped), hold only the keys stored
  /// when the writer began.
  @Test func windowsReadAheadOrAgainAfterTheImportWroteHoldOnlyTheStoredKeys() throws {
    let db = try database()
    try fill(db, count: 3_000, seed: 7)
    let stored = try keys(db)
    let first = try CivilDate.parse("2025-01-01")
    try db.importRows(sourceFile: "new.csv", dryRun: false, explainLimit: 0, importedAt: nil) { writer in
      let asked = try #require(try writer.storedKeysBefore())
      var batcher = ImportBatcher()
      var written: [Int64] = []
      for day in stride(from: 0, to: 300, by: 3) {
        let row = ImportedRow(
          line: day + 2, date: first.adding(days: day), amount: Money(minor: -1, currency: .usd),
          description: "new \(day)", category: nil, account: nil, fingerprintHash: 0xDEAD_BEEF &+ UInt64(day))
        written.append(row.key)
        if let batch = try batcher.add(row) { try writer.write(batch) }
      }
      if let batch = try batcher.finish() { try writer.write(batch) }
      #expect(writer.inserted == written.count)
      for pass in 0..<3 {
        let order = pass == 1 ? Array(stored.reversed()) : stored
        #expect(order.allSatisfy { asked.contains($0) }, "pass \(pass)")
        let news = pass == 1 ? Array(written.reversed()) : written
        #expect(!news.contains { asked.contains($0) }, "pass \(pass)")
      }
      writer.closeStoredKeys()
    }
  }

  @Test func noKeysAreAskedWhereThereIsNothingToAsk() throws {
    let empty = try database()
    let none = try empty.importRows(sourceFile: "x", dryRun: false, explainLimit: 0, importedAt: nil) {
      try $0.storedKeysBefore()
    }
    #expect(none == nil)  // an empty ledger
    let db = try database()
    try fill(db, count: 10, seed: 2)
    let dry = try db.importRows(sourceFile: "x", dryRun: true, explainLimit: 0, importedAt: nil) {
      try $0.storedKeysBefore()
    }
    #expect(dry == nil)  // a preview lists every row whole
    let memory = try AppDatabase()
    try fill(memory, count: 10, seed: 3)
    let inMemory = try memory.importRows(sourceFile: "x", dryRun: false, explainLimit: 0, importedAt: nil) {
      try $0.storedKeysBefore()
    }
    #expect(inMemory == nil)  // no second connection to a memory database
  }

  @Test func keysAskedInNoDateOrderAreGivenUp() throws {
    let db = try database()
    try fill(db, count: 3_000, seed: 4)
    let stored = try keys(db)
    try db.importRows(sourceFile: "x", dryRun: false, explainLimit: 0, importedAt: nil) { writer in
      let asked = try #require(try writer.storedKeysBefore() as? StoredKeyWindows)
      // Alternating between far windows: each lookup reads one again.
      let (early, late) = (stored[0], stored[stored.count - 1])
      var answers: [Bool] = []
      for _ in 0..<40 {
        for key in stride(from: 0, to: stored.count, by: 300).map({ stored[$0] }) {
          answers.append(asked.contains(key))
        }
      }
      #expect(asked.gaveUp)
      #expect(answers.prefix(50).allSatisfy { $0 })  // right while it answered
      #expect(!asked.contains(early) && !asked.contains(late))  // then unsure
    }
  }

  /// The interpolation that narrows a day's binary search finds exactly the keys the search
  /// alone finds: days of evenly spread keys (hashes), of clustered ones, of one run of
  /// neighbours, asked about every key, its neighbours and keys in between.
  @Test func narrowingFindsWhatTheSearchAloneFinds() {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 11
    }
    let day = ExpenseKey.range(day: 20_000)
    let span = UInt64(day.upperBound - day.lowerBound)
    for shape in 0..<3 {
      for count in [1, 5, 33, 40, 300, 2_000] {
        var set = Set<Int64>()
        while set.count < count {
          let offset: UInt64
          switch shape {
          case 0: offset = next() % span  // spread evenly, as hashes are
          case 1: offset = (next() % 4) * (span / 4) + next() % 1_000  // four clusters
          default: offset = UInt64(set.count) * 3  // one run of near neighbours
          }
          set.insert(day.lowerBound + Int64(offset))
        }
        let keys = set.sorted()
        var asked = keys.flatMap { [$0 - 1, $0, $0 + 1] }
        asked += (0..<200).map { _ in day.lowerBound + Int64(next() % span) }
        keys.withUnsafeBufferPointer { buffer in
          for key in asked {
            var (lower, upper) = (0, keys.count)
            StoredKeyWindows.narrow(&lower, &upper, to: key, in: buffer)
            #expect(lower >= 0 && upper <= keys.count && lower <= upper)
            while lower < upper {
              let middle = (lower + upper) >> 1
              if buffer[middle] < key { lower = middle + 1 } else { upper = middle }
            }
            let found = lower < keys.count && buffer[lower] == key
            #expect(found == set.contains(key), "shape \(shape), \(count) keys, key \(key)")
          }
        }
      }
    }
  }
}
