import ArgumentParser
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `expenses restore FILE`: replaces the database with a backup, after checking the backup.
struct RestoreCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restore",
    abstract: "Replace the database with a backup made by 'expenses backup'.",
    discussion: """
      FILE must pass SQLite's integrity check, be an expenses database, and have a schema this \
      version reads; the current database may be damaged (what 'expenses check' reports). It is \
      kept as DATABASE.before-restore (refused if that file exists, unless --force), then \
      replaced in one transaction: a running report sees the old data or the new, never a mix.
      Example:
        expenses restore ~/expenses-2026-11-22.sqlite
      """)

  @OptionGroup var database: DatabaseOptions
  @Argument(help: "The backup file to restore.") var file: String
  @Flag(help: "Replace an existing DATABASE.before-restore.") var force = false

  func run() throws {
    let shownFile = TerminalText.sanitize(file)
    guard FileManager.default.fileExists(atPath: file) else {
      throw CLIFailure(message: "\(shownFile): no such file", kind: .noInput)
    }
    let path = database.resolvedPath
    AppDatabase.removeLeftovers(besides: path)
    // A private copy beside the database: what is checked is what is restored, and opening it
    // leaves nothing (no -shm) beside the user's file.
    let copy = try RestoreCommand.privateCopy(of: file, besides: path)
    defer { RestoreCommand.remove(copy) }
    do {
      _ = try AppDatabase.verifyBackup(at: copy)
    } catch {
      throw RestoreCommand.failure(error, shownPath: shownFile, copyPath: copy)
    }
    let previous = path + ".before-restore"
    let shownPrevious = TerminalText.sanitize(previous)
    var status = stat()
    if lstat(previous, &status) == 0 {
      guard force else {
        throw CLIFailure(
          message:
            "\(shownPrevious) already exists (the database before an earlier restore); move it away, or add --force to replace it",
          kind: .cannotCreate)
      }
      guard (status.st_mode & S_IFMT) == S_IFREG else {
        throw CLIFailure(
          message: "\(shownPrevious) is not a regular file; it is never replaced. Move it away and restore again",
          kind: .cannotCreate)
      }
    }
    let outcome: AppDatabase.RestoreOutcome
    do {
      outcome = try AppDatabase.restore(databaseAt: path, from: copy, keepingPreviousIn: previous, wait: database.wait)
    } catch {
      throw RestoreCommand.failure(error, shownPath: shownFile, copyPath: copy)
    }
    let count = outcome.info.expenseCount
    var line = "Restored \(count) expense\(count == 1 ? "" : "s") from \(shownFile)"
    if outcome.keptPrevious { line += "; the previous database is in \(shownPrevious)" }
    try Console.line(line)
    if outcome.replacedFile {
      try Console.line(
        "The previous database was too damaged to restore in place; a running 'expenses serve' must be restarted.")
    }
  }

  /// A backup error in the words of the user's file (not the private copy), with its exit code.
  static func failure(_ error: any Error, shownPath: String, copyPath: String) -> CLIFailure {
    guard let error = error as? BackupError else {
      return CLIFailure(error) ?? CLIFailure(message: "\(error)", kind: .io)
    }
    let message = error.description.replacingOccurrences(of: copyPath, with: shownPath)
    return CLIFailure(message: message, kind: error.kind)
  }

  /// Copies `source` byte for byte into a new 0600 file beside `database`; returns its path.
  static func privateCopy(of source: String, besides database: String) throws(CLIFailure) -> String {
    let shown = TerminalText.sanitize(source)
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else {
      throw CLIFailure(message: "cannot read \(shown): \(String(cString: strerror(errno)))", kind: .noInput)
    }
    defer { close(input) }
    // Restoring onto a new machine: the database's folder may not exist yet.
    let folder = (database as NSString).deletingLastPathComponent
    if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
      try? FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    let (output, path): (Int32, String)
    do { (output, path) = try OutputFile.temporaryFile(beside: database, infix: ".restore.\(getpid())") } catch {
      throw CLIFailure(message: error.description, kind: error.kind)
    }
    defer { close(output) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
      if n < 0 && errno == EINTR { continue }
      var failed = n < 0
      if n > 0 {
        var done = 0
        while done < n && !failed {
          let w = buffer.withUnsafeBytes { write(output, $0.baseAddress! + done, n - done) }
          if w < 0 && errno == EINTR { continue }
          if w < 0 { failed = true } else { done += w }
        }
      }
      if failed {
        let reason = String(cString: strerror(errno))
        remove(path)
        throw CLIFailure(message: "cannot copy \(shown): \(reason)", kind: .io)
      }
      if n == 0 { return path }
    }
  }

  /// Removes a private copy and whatever SQLite left beside it.
  static func remove(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
  }
}
