import ExpenseCore
import ExpenseStore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What `expenses copy` copied.
public struct LedgerCopySummary: Sendable, Equatable {
  public var expenses: Int
  public var budgets: Int
  public var rules: Int
  public var imports: Int
  public var tokens: Int
  /// Source and target as messages may show them (no password).
  public var source: String
  public var target: String

  public init(expenses: Int, budgets: Int, rules: Int, imports: Int, tokens: Int, source: String, target: String) {
    self.expenses = expenses
    self.budgets = budgets
    self.rules = rules
    self.imports = imports
    self.tokens = tokens
    self.source = source
    self.target = target
  }
}

extension ExpenseService {
  /// Copies one ledger exactly from the store at `source` into the store at `target`: a SQLite
  /// file into a ledger of a PostgreSQL database, or back into a NEW SQLite file (never one that
  /// exists, never anything that is not a regular file). `ledger` names the PostgreSQL side's
  /// ledger (else the URL's `ledger=` parameter, else `default`); a missing target ledger is
  /// created, one that holds data is refused.
  ///
  /// Why through `readLedger`/`loadLedger` and not the use cases: a copy keeps what no use case
  /// sets (ids, keys, provenance, import records, token hashes), and it is ONE transaction on
  /// the target, reading the source in one transaction: a failure leaves nothing (a new file is
  /// removed, a ledger the copy created is dropped again).
  public static func copyLedger(from source: String, to target: String, ledger: String?, stores: any StoreOpening)
    throws
    -> LedgerCopySummary
  {
    let (sourceLocation, targetLocation) = try copyLocations(from: source, to: target, ledger: ledger)
    // The target first: a refusal there needs no source.
    var status = stat()
    if targetLocation == nil && lstat(target, &status) == 0 {
      throw ServiceError.copyTargetExists(path: target, what: describe(status))
    }
    let origin: any LedgerStore
    if let sourceLocation {
      origin = try stores.open(source, access: .read, wait: 10, ledger: sourceLocation.ledger).store
    } else {
      guard FileManager.default.fileExists(atPath: source) else { throw StoreError.noDatabase(path: source) }
      origin = try stores.open(source, access: .read, wait: 10, ledger: nil).store
    }
    if let targetLocation {
      let destination = try stores.openCreatingLedger(targetLocation)
      do {
        let summary = try copy(origin, into: destination, source: source, target: destination.location.redacted)
        try destination.finishCreatedLedger(keep: true)
        return summary
      } catch {
        try? destination.finishCreatedLedger(keep: false)
        throw error
      }
    }
    return try copyIntoNewFile(origin, source: source, path: target, stores: stores)
  }

  /// The PostgreSQL locations of both sides (`nil` for a SQLite file), with `--ledger` applied.
  static func copyLocations(from source: String, to target: String, ledger: String?) throws(ServiceError)
    -> (PostgresLocation?, PostgresLocation?)
  {
    func location(_ text: String, option: String) throws(ServiceError) -> PostgresLocation? {
      guard PostgresLocation.isURL(text) else { return nil }
      guard let location = PostgresLocation(url: text) else { throw .invalidStoreURL(option: option) }
      return location
    }
    var sourceLocation = try location(source, option: "--from")
    var targetLocation = try location(target, option: "--to")
    guard let ledger else { return (sourceLocation, targetLocation) }
    guard !ledger.isEmpty else { throw .ledgerOption(reason: "the ledger name is empty") }
    switch (sourceLocation != nil, targetLocation != nil) {
    case (false, false):
      throw .ledgerOption(reason: "it names a ledger of a PostgreSQL database, and neither --from nor --to is one")
    case (true, true):
      throw .ledgerOption(
        reason: "both --from and --to are PostgreSQL databases; name each one's ledger in its URL (?ledger=NAME)")
    case (true, false):
      if let named = sourceLocation?.ledger, named != ledger {
        throw .ledgerOption(reason: "--from names ledger '\(named)' already")
      }
      sourceLocation?.ledger = ledger
    case (false, true):
      if let named = targetLocation?.ledger, named != ledger {
        throw .ledgerOption(reason: "--to names ledger '\(named)' already")
      }
      targetLocation?.ledger = ledger
    }
    return (sourceLocation, targetLocation)
  }

  /// Reads `origin` in one transaction and loads it into `destination` in one transaction.
  static func copy(_ origin: any LedgerStore, into destination: any LedgerStore, source: String, target: String)
    throws -> LedgerCopySummary
  {
    try origin.readLedger { contents, reader in
      try destination.loadLedger(contents) { sink in try reader.forEachBatch(sink) }
      return LedgerCopySummary(
        expenses: contents.expenseCount, budgets: contents.budgets.count, rules: contents.rules.count,
        imports: contents.imports.count, tokens: contents.tokens.count, source: shown(path: source), target: target)
    }
  }

  /// Copies into a new SQLite file at `path`: built in a private temporary file beside it and
  /// renamed into place only once complete and closed.
  static func copyIntoNewFile(_ origin: any LedgerStore, source: String, path: String, stores: any StoreOpening)
    throws -> LedgerCopySummary
  {
    var status = stat()
    if lstat(path, &status) == 0 { throw ServiceError.copyTargetExists(path: path, what: describe(status)) }
    var protected = ProtectedFiles()
    if let main = origin.filePath { protected.addMainFile(main, directory: origin) }
    // What a copy killed half-way left here goes first; this one's name says its process.
    stores.files.removeLeftovers(besides: path)
    let output = try OutputFile(path: path, force: false, protected: protected, infix: ".copy.\(getpid())")
    do {
      let summary = try buildFile(
        origin, source: source, temporary: output.temporaryPath, shown: path, stores: stores)
      try output.commit()
      return summary
    } catch {
      output.discard()
      for suffix in ["-wal", "-shm", "-journal"] { unlink(output.temporaryPath + suffix) }
      throw error
    }
  }

  /// Opens, fills and closes the SQLite database in `temporary` (closed when this returns, so
  /// its `-wal` is folded into the file before the rename).
  private static func buildFile(
    _ origin: any LedgerStore, source: String, temporary: String, shown: String, stores: any StoreOpening
  ) throws -> LedgerCopySummary {
    let destination = try stores.createFile(at: temporary)
    return try copy(origin, into: destination, source: source, target: shown)
  }

  /// What a file status is, in words.
  static func describe(_ status: stat) -> String {
    switch status.st_mode & S_IFMT {
    case S_IFREG: return "a regular file"
    case S_IFDIR: return "a directory"
    case S_IFLNK: return "a symbolic link"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    default: return "something that is not a regular file"
    }
  }
}
