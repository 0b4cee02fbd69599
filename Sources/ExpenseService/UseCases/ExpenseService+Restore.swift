import ExpenseRender
import ExpenseStore
import Foundation
import SystemIO

#if canImport(Glibc)
  import Glibc
#endif

extension ExpenseService {
  /// What a restore did.
  public struct RestoreResult: Sendable, Equatable {
    /// How many expenses the restored database holds.
    public var expenseCount: Int
    /// The database before the restore was kept, in `previousPath`.
    public var keptPrevious: Bool
    public var previousPath: String
    /// The previous file was too damaged to restore in place and was replaced whole: a running
    /// server must be restarted.
    public var replacedFile: Bool
  }

  /// Replaces the SQLite database at `path` with the backup `file`, after checking the backup
  /// (integrity, an expenses database, a schema this version reads). The current database is
  /// kept as `PATH.before-restore` (refused if that exists, unless `force`; never replaced when it
  /// is not a regular file). What is checked is what is restored: a private copy beside the
  /// database. Errors name `file` as the user gave it.
  public static func restore(
    databaseAt path: String, from file: String, force: Bool, wait: Double, stores: any StoreOpening
  ) throws
    -> RestoreResult
  {
    let shownFile = TerminalText.sanitize(file)
    guard !isServerURL(path) else {
      throw StoreError.io(
        path: shown(path: path),
        detail: "a PostgreSQL store is restored with the server's tools (pg_restore), not by expenses")
    }
    guard FileManager.default.fileExists(atPath: file) else { throw ServiceError.noSuchFile(path: shownFile) }
    stores.files.removeLeftovers(besides: path)
    let copy = try privateCopy(of: file, besides: path)
    defer { removeCopy(copy) }
    do {
      _ = try stores.files.verifyBackup(at: copy)
    } catch {
      throw inUserTerms(error, shownPath: shownFile, copyPath: copy)
    }
    let previous = path + ".before-restore"
    let shownPrevious = TerminalText.sanitize(previous)
    var status = stat()
    if lstat(previous, &status) == 0 {
      guard force else { throw ServiceError.previousRestoreExists(path: shownPrevious) }
      guard (status.st_mode & S_IFMT) == S_IFREG else {
        throw ServiceError.previousRestoreNotRegular(path: shownPrevious)
      }
    }
    let outcome: RestoreOutcome
    do {
      outcome = try stores.files.restore(databaseAt: path, from: copy, keepingPreviousIn: previous, wait: wait)
    } catch {
      throw inUserTerms(error, shownPath: shownFile, copyPath: copy)
    }
    return RestoreResult(
      expenseCount: outcome.info.expenseCount, keptPrevious: outcome.keptPrevious, previousPath: previous,
      replacedFile: outcome.replacedFile)
  }

  /// A backup error in the words of the user's file, not the private copy.
  static func inUserTerms(_ error: any Error, shownPath: String, copyPath: String) -> any Error {
    guard let error = error as? BackupError else { return error }
    return ServiceError.backupRefused(
      error.description.replacingOccurrences(of: copyPath, with: shownPath), kind: error.kind)
  }

  /// Copies `source` byte for byte into a new 0600 file beside `database`; returns its path.
  static func privateCopy(of source: String, besides database: String) throws(ServiceError) -> String {
    let shown = TerminalText.sanitize(source)
    let input = Glibc.open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw ServiceError.cannotRead(path: shown, reason: String(cString: strerror(errno))) }
    defer { close(input) }
    // Restoring onto a new machine: the database's folder may not exist yet.
    let folder = (database as NSString).deletingLastPathComponent
    if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
      try? FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    let (output, path) = try OutputFile.temporaryFile(beside: database, infix: ".restore.\(getpid())")
    defer { close(output) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { raw in raw.baseAddress.map { read(input, $0, raw.count) } ?? -1 }
      if n < 0 && errno == EINTR { continue }
      let failure: Int32? = n < 0 ? errno : n > 0 ? FileDescriptorWriter.writeAll(output, buffer, count: n) : nil
      if let failure {
        removeCopy(path)
        throw ServiceError.cannotCopy(path: shown, reason: String(cString: strerror(failure)))
      }
      if n == 0 { return path }
    }
  }

  /// Removes a private copy and whatever SQLite left beside it.
  static func removeCopy(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
  }
}
