import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// Ledgers, users, roles and tokens through the service, in both stores: what `expenses ledger`,
/// `expenses user` and `expenses token` do, and what the server relies on.
@Suite struct DirectoryTests {
  enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres
    var testDescription: String { rawValue }
    /// PostgreSQL only where a server may be started (`TestTier`).
    static var allCases: [Kind] { TestTier.postgres ? [.sqlite, .postgres] : [.sqlite] }
  }

  /// The main service over a new database of `kind`, and its path or URL.
  static func open(_ kind: Kind, in folder: ServiceTests.Folder) throws -> (ExpenseService, String) {
    let path = kind == .sqlite ? folder.database : try PostgresServer.shared().makeDatabase()
    return (try ExpenseService.open(path: path, access: .write), path)
  }

  @Test(arguments: Kind.allCases) func aNewDatabaseIsOneLedgerWithOneUser(kind: Kind) throws {
    let folder = try ServiceTests.Folder()
    let (service, _) = try Self.open(kind, in: folder)
    #expect(try service.ledgers() == ["default"])
    #expect(try service.members().map { "\($0.user) \($0.ledger) \($0.role)" } == ["local default owner"])
    try service.createToken(name: "phone", scope: .read, expiresInDays: nil, hash: "h1")
    let token = try #require(try service.token(hash: "h1"))
    #expect(token.user == "local" && token.ledger == "default" && token.role == .owner)
    #expect(token.effectiveScope == .read)
  }

  @Test(arguments: Kind.allCases) func ledgersUsersAndRoles(kind: Kind) throws {
    let folder = try ServiceTests.Folder()
    let (service, path) = try Self.open(kind, in: folder)
    try service.createLedger("family")
    #expect(try service.ledgers() == ["default", "family"])
    #expect(throws: StoreError.ledgerExists("family")) { try service.createLedger("family") }
    #expect(throws: StoreError.invalidName(kind: "ledger", name: "../x")) { try service.createLedger("../x") }
    #expect(throws: StoreError.invalidName(kind: "user", name: "a/b")) {
      try service.addMember(user: "a/b", ledger: "family", role: .read)
    }
    #expect(throws: StoreError.self) { try service.addMember(user: "bo", ledger: "nope", role: .read) }
    _ = path

    try service.addMember(user: "bo", ledger: "family", role: .write)
    try service.createToken(
      name: "bo-phone", scope: .write, expiresInDays: nil, hash: "hb", user: "bo", ledger: "family")
    #expect(try service.token(hash: "hb")?.effectiveScope == .write)
    // A lower role narrows the token at once; leaving the ledger takes it away.
    try service.addMember(user: "bo", ledger: "family", role: .read)
    #expect(try service.token(hash: "hb")?.effectiveScope == .read)
    try service.removeMember(user: "bo", ledger: "family")
    #expect(try service.token(hash: "hb")?.role == nil)
    #expect(try service.token(hash: "hb")?.effectiveScope == nil)
    #expect(try service.tokens().first { $0.token.name == "bo-phone" }?.state == "no role")

    #expect(throws: StoreError.notAMember(user: "bo", ledger: "family")) {
      try service.removeMember(user: "bo", ledger: "family")
    }
    #expect(throws: StoreError.notAMember(user: "bo", ledger: "family")) {
      try service.createToken(name: "t2", scope: .read, expiresInDays: nil, hash: "h2", user: "bo", ledger: "family")
    }
    // Names are unique across ledgers.
    #expect(throws: StoreError.tokenExists("bo-phone")) {
      try service.createToken(name: "bo-phone", scope: .read, expiresInDays: nil, hash: "h3")
    }
    // A ledger keeps an owner.
    #expect(throws: StoreError.lastOwner(user: "local", ledger: "family")) {
      try service.removeMember(user: "local", ledger: "family")
    }
    #expect(throws: StoreError.lastOwner(user: "local", ledger: "family")) {
      try service.addMember(user: "local", ledger: "family", role: .write)
    }
    try service.addMember(user: "ana", ledger: "family", role: .owner)
    try service.removeMember(user: "local", ledger: "family")
    #expect(try service.onlyLedger(of: "ana") == "family")
    #expect(throws: ServiceError.ledgerNeeded(user: "nobody", ledgers: [])) { try service.onlyLedger(of: "nobody") }
  }

  @Test(arguments: Kind.allCases) func theDirectoryStampMovesWithEveryDirectoryChange(kind: Kind) throws {
    let folder = try ServiceTests.Folder()
    let (service, path) = try Self.open(kind, in: folder)
    // Another connection watches, as the server's does.
    let watcher = try ExpenseService.open(path: path, access: .read)
    var stamp = try watcher.directoryStamp()
    let changes: [() throws -> Void] = [
      { try service.createToken(name: "a", scope: .read, expiresInDays: nil, hash: "ha") },
      { try service.revokeToken(name: "a") },
      { try service.createLedger("family") },
      { try service.addMember(user: "bo", ledger: "family", role: .read) },
      { try service.removeMember(user: "bo", ledger: "family") },
    ]
    for (index, change) in changes.enumerated() {
      try change()
      let next = try watcher.directoryStamp()
      #expect(next != stamp, "change \(index)")
      stamp = next
    }
  }

  @Test(arguments: Kind.allCases) func eachLedgerHoldsOnlyItsOwnData(kind: Kind) throws {
    let folder = try ServiceTests.Folder()
    let (service, path) = try Self.open(kind, in: folder)
    try service.createLedger("family")
    let family = try ExpenseService.open(path: path, access: .write, ledger: "family")
    _ = try family.addExpense(
      date: CivilDate(year: 2026, month: 10, day: 2)!, amount: "2.50", description: "bread", category: "Food",
      account: nil, currency: "USD")
    _ = try family.saveBudget(Budget(category: "Food", amount: Money(minor: 10_000, currency: .usd), month: nil))
    #expect(try family.store.expenseCount(month: nil) == 1)
    #expect(try service.store.expenseCount(month: nil) == 0)
    #expect(try service.budgets().isEmpty)
    // The family's service answers for the same directory.
    #expect(try family.ledgers() == ["default", "family"])
    let reader = try ExpenseService.open(path: path, access: .read, ledger: "family")
    #expect(try reader.store.expenseCount(month: nil) == 1)
    #expect(throws: StoreError.self) { try ExpenseService.open(path: path, access: .read, ledger: "nope") }
  }

  @Test(arguments: Kind.allCases) func eachUserFoldsTheReportTheirOwnWay(kind: Kind) throws {
    let folder = try ServiceTests.Folder()
    let (service, _) = try Self.open(kind, in: folder)
    let bo = service.acting(for: "bo")
    try service.changeSections(expand: ["expenses"], collapse: [])
    try bo.changeSections(expand: [], collapse: ["expenses"])
    try bo.setAccordion(true)
    #expect(try service.savedSections().expanded[.expenses] == true)
    #expect(try service.savedSections().accordion == false)
    #expect(try bo.savedSections().expanded[.expenses] == false)
    #expect(try bo.savedSections().accordion == true)
    // Forgetting one user's states leaves the other's.
    try bo.resetSections()
    #expect(try bo.sectionEntries().allSatisfy { !$0.saved })
    #expect(try service.savedSections().expanded[.expenses] == true)
    // A report folds by its user's states.
    let month = Month(year: 2026, month: 10)!
    let today = CivilDate(year: 2026, month: 10, day: 20)!
    #expect(try service.reportJSON(month: month, today: today) != bo.reportJSON(month: month, today: today))
  }

  @Test func aSQLiteLedgerIsAFileBesideTheMainOneAndNeverTakesOneOver() throws {
    let folder = try ServiceTests.Folder()
    let (service, path) = try Self.open(.sqlite, in: folder)
    try service.createLedger("family")
    let file = LedgerFiles.path(of: "family", besides: path)
    #expect(file == folder.url.appendingPathComponent("db.ledgers/family.sqlite").path)
    #expect(FileManager.default.fileExists(atPath: file))
    // Something already where a new ledger's file would go: refused, nothing registered.
    let taken = LedgerFiles.path(of: "taken", besides: path)
    try Data("mine".utf8).write(to: URL(fileURLWithPath: taken))
    #expect(throws: ServiceError.ledgerFileExists(path: taken, what: "a file")) { try service.createLedger("taken") }
    #expect(try service.ledgers() == ["default", "family"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: taken)) == Data("mine".utf8))
    // A ledger whose file went missing is reported, not made again empty.
    try FileManager.default.removeItem(atPath: file)
    #expect(throws: StoreError.noDatabase(path: file)) {
      try ExpenseService.open(path: path, access: .write, ledger: "family")
    }
    #expect(!FileManager.default.fileExists(atPath: file))
  }
}
