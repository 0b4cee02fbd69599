import ExpenseCore
import ExpenseStore
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ExpensePostgres

/// The pool a server's ledgers share (`PostgresPool`): one connection passed from ledger to
/// ledger shows each only its own rows, a reader's lease refuses writes whoever held the
/// connection before, nothing of a lease (an open transaction) reaches the next, and a lease
/// that finds every connection busy fails as busy after its wait instead of hanging.
@Suite(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason)))
struct PostgresPoolTests {
  /// Two ledgers' stores over one pool of one connection, in a database owned by an ordinary
  /// role (a superuser would pass row-level security).
  static func twoLedgers(wait: Double = 10) throws -> (pool: PostgresPool, home: PostgresStore, family: PostgresStore) {
    let location = try RowLevelSecurityTests.ownedDatabase()
    let pool = PostgresPool(location: location, size: 1, wait: wait)
    let home = try PostgresStore(pool: pool, ledger: nil, access: .write)
    try home.createLedger("family", at: RowLevelSecurityTests.time)
    return (pool, home, try PostgresStore(pool: pool, ledger: "family", access: .write))
  }

  @Test func oneConnectionPassedBetweenLedgersShowsEachOnlyItsOwn() throws {
    let (pool, home, family) = try Self.twoLedgers()
    try SharedDatabaseTests.importTwoRows(home, file: "home.csv")
    try SharedDatabaseTests.importTwoRows(family, file: "family.csv")
    try SharedDatabaseTests.importTwoRows(home, file: "home-2.csv")
    try home.setSetting("secret", "home's")
    func count(_ store: PostgresStore, _ table: String) throws -> Int64 {
      try store.read { try $0.query("SELECT count(*) FROM \(unescaped: table)").first?.decode(Int64.self) } ?? -1
    }
    // Turn by turn on the one connection, each statement names no ledger.
    for _ in 0..<3 {
      #expect(try count(home, "expense") == 4)
      #expect(try count(family, "expense") == 2)
      #expect(try count(family, "setting") == 0)
      #expect(try count(home, "setting") == 1)
    }
    let deleted = try family.read { try $0.query("DELETE FROM expense WHERE ledger_id = \(home.ledger)") }
    #expect((deleted.metadata.rows ?? -1) == 0)
    #expect(try home.expenseCount(month: nil) == 4)
    #expect(pool.usage == .init(open: 1, leased: 0, waits: 0))
  }

  @Test func aReadersLeaseRefusesWritesWhoeverHeldTheConnectionBefore() throws {
    let (pool, home, _) = try Self.twoLedgers()
    let reader = try PostgresStore(pool: pool, ledger: nil, access: .read)
    try home.setSetting("a", "1")
    #expect(throws: StoreError.self) { try reader.setSetting("b", "2") }
    // And the writer after the reader writes again.
    try home.setSetting("c", "3")
    #expect(try reader.setting("c") == "3")
    #expect(try reader.setting("b") == nil)
  }

  @Test func aConnectionGivenBackInATransactionIsRolledBack() throws {
    let (pool, home, _) = try Self.twoLedgers()
    let connection = try pool.lease(ledger: home.ledger, readOnly: false)
    try connection.execute("BEGIN")
    try connection.query("INSERT INTO setting (ledger_id, key, value) VALUES (\(home.ledger), 'half', 'x')")
    pool.giveBack(connection, clean: false)
    #expect(try home.setting("half") == nil)
    // The next lease starts outside any transaction: a savepoint has none to live in.
    #expect(throws: StoreError.self) { try home.read { try $0.execute("SAVEPOINT probe") } }
  }

  @Test func aLeaseThatFindsEveryConnectionBusyFailsAsBusy() throws {
    let (pool, home, family) = try Self.twoLedgers(wait: 0.3)
    let failure = Mutex<StoreError?>(nil)
    try home.atomically {
      // `home` holds the one connection for its transaction; another thread asks for one.
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        do { _ = try family.setting("x") } catch { failure.withLock { $0 = error as? StoreError } }
        done.signal()
      }
      done.wait()
    }
    let error = failure.withLock { $0 }
    #expect(error == .poolExhausted(path: pool.location.redacted, size: 1))
    #expect(error?.kind == .busy)
    #expect(pool.usage.waits == 1)
    // Once given back, the connection serves the other ledger.
    #expect(try family.setting("x") == nil)
  }

  @Test func theStampsOfEveryLedgerComeInOneReadAndTheDirectoryScopeEndsWithIt() throws {
    let (_, home, family) = try Self.twoLedgers()
    try SharedDatabaseTests.importTwoRows(family, file: "family.csv")
    let before = try #require(try home.stamps(of: ["default", "family", "gone"]))
    #expect(before.ledgers == ["default": try home.changeStamp(), "family": try family.changeStamp()])
    #expect(before.directory == (try home.directoryStamp()))
    try family.setSetting("a", "1")
    try home.createLedger("third", at: RowLevelSecurityTests.time)
    let after = try #require(try family.stamps(of: ["default", "family"]))
    #expect(after.ledgers["family"] ?? 0 > before.ledgers["family"] ?? 0)
    #expect(after.ledgers["default"] == before.ledgers["default"])
    #expect(after.directory > before.directory)
    // The one connection said `directory` for that read; a ledger's lease sees only its own
    // ledger row again, and none of another's data.
    let ledgers = try family.read { try $0.query("SELECT count(*) FROM ledger").first?.decode(Int64.self) }
    #expect(ledgers == 1)
    #expect(try family.expenseCount(month: nil) == 2)
    #expect(try home.expenseCount(month: nil) == 0)
  }
}
