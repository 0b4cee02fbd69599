import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// Connections of one file opened and closed at once in one process, as a server does when it
/// opens one ledger while closing another: none is refused as busy. (A connection that closes
/// holds a pending lock for a moment while SQLite checks whether it is the file's last one; a
/// new connection meeting it must wait that moment out, not fail.)
@Suite struct ConcurrentOpeningTests {
  @Test func opensBesideClosesAreNeverBusy() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-opening-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("db.sqlite").path
    let kept = try AppDatabase(path: path)
    _ = try kept.revision()
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      for round in 0..<400 {
        do {
          let writer = try AppDatabase(path: path, access: .write)
          let reader = try AppDatabase(path: path, access: .read)
          _ = try (worker + round) % 2 == 0 ? reader.revision() : writer.revision()
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
    }
    let seen = failures.withLock { $0 }
    #expect(seen.isEmpty, "\(seen.count) of 3200 opens failed, first: \(seen.first ?? "")")
    _ = try kept.revision()
  }
}
