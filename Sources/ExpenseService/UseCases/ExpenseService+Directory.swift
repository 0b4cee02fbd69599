import ExpenseStore
import Foundation

/// Ledgers and users: `expenses ledger` and `expenses user`. They act on the `directory` (the
/// main SQLite file, or the PostgreSQL database), whichever ledger the service has open.
extension ExpenseService {
  /// Every ledger, by name.
  public func ledgers() throws -> [String] { try directory.ledgerNames() }

  /// Makes ledger `name`, owned by `local`. In SQLite its file is made first, beside the main
  /// one (never over anything that exists), then registered; a registration that fails takes
  /// the new file away again, so nothing half-made stays.
  public func createLedger(_ name: String) throws {
    guard DirectoryName.isValid(name) else { throw StoreError.invalidName(kind: "ledger", name: name) }
    let time = clock.timestamp
    guard let main = directory.filePath else { return try directory.createLedger(name, at: time) }
    if try directory.ledgerNames().contains(name) { throw StoreError.ledgerExists(name) }
    let file = LedgerFiles.path(of: name, besides: main)
    if let what = LedgerFiles.existing(file) { throw ServiceError.ledgerFileExists(path: file, what: what) }
    let folder = LedgerFiles.folder(besides: main)
    if let what = LedgerFiles.existing(folder), what != "a folder" {
      throw ServiceError.ledgerFileExists(path: folder, what: what)
    }
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    } catch  where LedgerFiles.existing(folder) == "a folder" {
      // There already (made by an earlier ledger).
    } catch {
      throw ServiceError.cannotCreate(path: folder, reason: error.localizedDescription)
    }
    _ = try stores.createFile(at: file)
    do {
      try directory.createLedger(name, at: time)
    } catch {
      for leftover in [file, file + "-wal", file + "-shm"] { try? FileManager.default.removeItem(atPath: leftover) }
      throw error
    }
  }

  /// Every user's role in every ledger.
  public func members() throws -> [Membership] { try directory.members() }

  /// Adds `user` (made when new) to `ledger` with `role`, or changes their role there.
  public func addMember(user: String, ledger: String, role: LedgerRole) throws {
    try directory.setMember(Membership(user: user, ledger: ledger, role: role, since: clock.timestamp))
  }

  /// Takes `user` out of `ledger`: their tokens there are refused from the next request on.
  public func removeMember(user: String, ledger: String) throws {
    try directory.removeMember(user: user, ledger: ledger)
  }

  /// The ledger a token of `user` acts on when none is named: their only ledger.
  public func onlyLedger(of user: String) throws -> String {
    let ledgers = try directory.members().filter { $0.user == user }.map(\.ledger)
    guard ledgers.count == 1, let ledger = ledgers.first else {
      throw ServiceError.ledgerNeeded(user: user, ledgers: ledgers)
    }
    return ledger
  }
}
