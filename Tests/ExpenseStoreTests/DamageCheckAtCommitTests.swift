import ExpenseCore
import Foundation
import GRDB
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// `AppDatabase.DamageCheck.atCommit` (`expenses import`): the open goes ahead while the file
/// is checked beside it, and no commit reaches a damaged file.
@Suite final class DamageCheckAtCommitTests {
  private var folders: [String] = []
  deinit { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }

  /// A database of 3,000 rows, its write-ahead log folded in; with `damaged`, the page in the
  /// middle of the file overwritten with garbage.
  func database(damaged: Bool) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-damage-\(UUID().uuidString)")
    folders.append(folder.path)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("db.sqlite").path
    do {
      let db = try AppDatabase(path: path)
      let first = try CivilDate.parse("2026-01-01")
      try db.importRows(sourceFile: "many.csv") { feeder in
        for i in 0..<3_000 {
          try feeder.insert(
            date: first.adding(days: i % 300), amount: Money(minor: Int64(-100 - i), currency: .usd),
            description: "Shop \(i) with a longer name", category: nil, account: nil,
            fingerprintHash: UInt64(i) &* 0x9E37_79B9, line: i + 2)
        }
      }
    }
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    try queue.close()
    if damaged {
      let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
      let page = AppDatabase.pageSize
      let handle = try #require(FileHandle(forUpdatingAtPath: path))
      try handle.seek(toOffset: UInt64(size / page / 2 * page))
      try handle.write(contentsOf: Data(repeating: 0xA5, count: page))
      try handle.close()
    }
    return path
  }

  @Test func aCommitToADamagedFileIsRefusedAndNothingIsWritten() throws {
    let path = try database(damaged: true)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect {
      _ = try AppDatabase(path: path, access: .write)
    } throws: { error in
      guard case .corrupt = error as? StoreError else { return false }
      return true
    }
    do {
      // Opens: the check runs beside. A write that reads no damaged page reaches its commit,
      // which the check refuses.
      let db = try AppDatabase(path: path, access: .write, damageCheck: .atCommit)
      #expect {
        _ = try db.addRule(pattern: "coffee", category: "Dining", field: .description)
      } throws: { error in
        guard case .corrupt(let named, _) = error as? StoreError else { return false }
        return named == path
      }
      #expect(try db.rules().isEmpty)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func aSoundFileTakesItsWrites() throws {
    let path = try database(damaged: false)
    let db = try AppDatabase(path: path, access: .write, damageCheck: .atCommit)
    _ = try db.addRule(pattern: "coffee", category: "Dining", field: .description)
    _ = try db.addRule(pattern: "tea", category: "Dining", field: .description)
    #expect(try db.rules().count == 2)
  }
}
