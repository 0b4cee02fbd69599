import ExpenseCore
import ExpenseStore
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ExpensePostgres

/// Row-level security is the second, independent check that one ledger's session never reaches
/// another ledger's rows: statements that name no ledger at all (what a bug in a query would
/// be) see and change only the session's own. The stores connect as an ordinary role that owns
/// the database, as a deployment would (a superuser bypasses row-level security).
@Suite struct RowLevelSecurityTests {
  static let time = "2026-10-02T00:00:00Z"

  /// Two stores of two ledgers of a database owned by a new ordinary role.
  static func twoLedgers() throws -> (home: PostgresStore, family: PostgresStore) {
    var location = try ownedDatabase()
    let home = try PostgresStore(location: location)
    try home.createLedger("family", at: time)
    location.ledger = "family"
    return (home, try PostgresStore(location: location))
  }

  /// A ledger keeps an owner when two sessions take its two owners out at once, each through
  /// a store of another ledger (which holds only its own ledger's lock): the second waits for
  /// the first and is refused (`lastOwner`), where both used to see the other owner and commit.
  @Test func twoRemovalsAtOnceLeaveALedgerAnOwner() throws {
    let (home, family) = try Self.twoLedgers()
    try home.createLedger("shared", at: Self.time)
    try home.setMember(Membership(user: "alex", ledger: "shared", role: .owner, since: Self.time))
    let second = Mutex<(any Error)?>(nil)
    let done = DispatchSemaphore(value: 0)
    try home.atomically {
      try home.removeMember(user: DirectoryName.localUser, ledger: "shared")
      // The other removal starts while this one holds its transaction open.
      Thread.detachNewThread {
        do { try family.removeMember(user: "alex", ledger: "shared") } catch { second.withLock { $0 = error } }
        done.signal()
      }
      #expect(done.wait(timeout: .now() + 1) == .timedOut, "the second removal waits for the first")
    }
    done.wait()
    #expect(second.withLock { $0 as? StoreError } == .lastOwner(user: "alex", ledger: "shared"))
    #expect(try home.members().filter { $0.ledger == "shared" }.map(\.role) == [.owner])
  }

  @Test func aStatementThatNamesNoLedgerSeesAndChangesOnlyItsOwn() throws {
    let (home, family) = try Self.twoLedgers()
    try SharedDatabaseTests.importTwoRows(home, file: "home.csv")
    try SharedDatabaseTests.importTwoRows(home, file: "home-2.csv")
    try SharedDatabaseTests.importTwoRows(family, file: "family.csv")
    try home.setSetting("secret", "home's")

    func count(_ store: PostgresStore, _ table: String) throws -> Int64 {
      try store.connection.query("SELECT count(*) FROM \(unescaped: table)").first?.decode(Int64.self) ?? -1
    }
    #expect(try count(home, "expense") == 4)
    #expect(try count(family, "expense") == 2)
    #expect(try count(family, "import_record") == 1)
    #expect(try count(family, "setting") == 0)
    #expect(try count(family, "month_total") > 0)
    #expect(try count(family, "month_total") < count(home, "month_total") + count(family, "month_total"))

    // Changes aimed at the other ledger's rows reach none.
    let updated = try family.connection.query("UPDATE setting SET value = 'stolen' WHERE key = 'secret'")
    #expect((updated.metadata.rows ?? -1) == 0)
    let deleted = try family.connection.query("DELETE FROM expense WHERE ledger_id = \(home.ledger)")
    #expect((deleted.metadata.rows ?? -1) == 0)
    #expect(try home.setting("secret") == "home's")
    #expect(try home.expenseCount(month: nil) == 4)
    // A row written for the other ledger is refused.
    #expect(throws: (any Error).self) {
      try family.connection.query(
        "INSERT INTO setting (ledger_id, key, value) VALUES (\(home.ledger), 'planted', 'x')")
    }
    #expect(try home.setting("planted") == nil)
  }

  @Test func theStoresStillWorkUnderIt() throws {
    let (home, family) = try Self.twoLedgers()
    try SharedDatabaseTests.importTwoRows(family, file: "family.csv")
    #expect(try family.expenses(month: nil, category: nil, limit: nil).count == 2)
    #expect(try home.expenses(month: nil, category: nil, limit: nil).isEmpty)
    #expect(try family.check().problems.isEmpty)
    #expect(try family.deleteExpenses(ids: [1]).count == 1)
    #expect(try home.members().map(\.ledger).sorted() == ["default", "family"])
  }

  /// Fails closed: as the application's role in psql, a session that names no ledger sees no
  /// row of any table, ledger data or directory; a session narrowed to a ledger sees only that
  /// ledger's directory rows (its ledger, members, their users, tokens). The stores still find
  /// every ledger's tokens and members, through transactions that say `directory`.
  @Test func aSessionWithNoLedgerSeesNothingAndANarrowedOneOnlyItsOwnDirectory() throws {
    let (home, family) = try Self.twoLedgers()
    try SharedDatabaseTests.importTwoRows(home, file: "home.csv")
    try SharedDatabaseTests.importTwoRows(family, file: "family.csv")
    try home.setMember(Membership(user: "alex", ledger: "default", role: .write, since: Self.time))
    try home.setMember(Membership(user: "kim", ledger: "family", role: .read, since: Self.time))
    try home.createToken(
      APIToken(name: "home-token", scope: .read, createdAt: Self.time, user: "alex", ledger: "default"), hash: "aa")
    try family.createToken(
      APIToken(name: "family-token", scope: .read, createdAt: Self.time, user: "kim", ledger: "family"), hash: "bb")
    let server = try PostgresServer.shared()
    let role = home.location.user
    func psql(_ sql: String) throws -> String { try server.query(sql, database: home.location.database, as: role) }
    let tables =
      PostgresSchema.ledgerTables + PostgresSchema.pairTables + PostgresSchema.recordTables
      + PostgresSchema.idRunTables + PostgresSchema.searchTextTables + [
        "ledger", "ledger_member", "api_token", "app_user",
      ]
    for table in tables {
      #expect(try psql("SELECT count(*) FROM \(table)") == "0", "\(table) with no ledger named")
    }
    // Each ledger table's policy reads the session's settings once per statement (v8).
    for table in PostgresSchema.ledgerTables + PostgresSchema.pairTables + PostgresSchema.recordTables
      + PostgresSchema.idRunTables + PostgresSchema.searchTextTables
    {
      let policy = try psql(
        "SELECT pg_get_expr(polqual, polrelid) FROM pg_policy WHERE polname = 'ledger_scope' AND polrelid = '\(table)'::regclass"
      )
      #expect(policy.contains("( SELECT current_setting"), "\(table): \(policy)")
    }
    let narrowed = "SET expenses.ledger = '\(family.ledger)'; "
    func narrowedLines(_ sql: String) throws -> [String] {
      try psql(narrowed + sql).split(separator: "\n").map(String.init).filter { !$0.isEmpty && $0 != "SET" }
    }
    #expect(try narrowedLines("SELECT name FROM ledger") == ["family"])
    #expect(try narrowedLines("SELECT name FROM api_token") == ["family-token"])
    #expect(try narrowedLines("SELECT DISTINCT ledger_id FROM ledger_member") == [String(family.ledger)])
    #expect(try narrowedLines("SELECT name FROM app_user ORDER BY name") == ["kim", "local"])
    #expect(try narrowedLines("SELECT count(*) FROM expense") == ["2"])
    // A narrowed session cannot plant a token or a member in another ledger.
    #expect(throws: (any Error).self) {
      try psql(
        narrowed
          + "INSERT INTO api_token (ledger_id, name, hash, scope, created_at) VALUES (\(home.ledger), 'x', 'cc', 'read', 'now')"
      )
    }
    // The directory's own work still sees every ledger.
    #expect(try family.tokens().map(\.name).sorted() == ["family-token", "home-token"])
    #expect(try family.token(hash: "aa")?.ledger == "default")
    #expect(try family.ledgerNames() == ["default", "family"])
    #expect(try family.members().count == 4)
  }

  /// A new database owned by a new ordinary role (`CONNECTION LIMIT limit`, if given), and
  /// where to reach it as that role.
  static func ownedDatabase(connectionLimit: Int? = nil) throws -> PostgresLocation {
    let admin = try PostgresStore(url: try PostgresServer.shared().makeDatabase())
    let role = "app_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
    try admin.connection.execute(
      "CREATE ROLE \(role) LOGIN" + (connectionLimit.map { " CONNECTION LIMIT \($0)" } ?? ""))
    try admin.connection.execute("CREATE DATABASE \(role) OWNER \(role)")
    var location = admin.location
    location.user = String(role)
    location.database = String(role)
    location.ledger = nil
    return location
  }
}

extension PostgresStore {
  /// The connection of a store that has its own (the CLI's kind), for statements the store
  /// has no call for.
  var connection: BlockingConnection { get throws { try read { $0 } } }
}
