import ExpenseStore
import Foundation

/// The files no output of any command may replace or write into, `--force` or not: every
/// database the program knows from where it stands, with their `-wal`, `-shm` and `-journal`.
///
/// Why more than the database in use: a command acting on ledger `fam` opens
/// `db.ledgers/fam.sqlite`, but the main file beside it holds every other ledger's
/// registration, every user and token and the default ledger's rows, and each registered
/// ledger's file holds a household's books. One mistyped `backup db.sqlite --force` from
/// another ledger would replace them all. So the list is: the file in use, the main file (the
/// directory) and the file of every ledger the directory registers.
public struct ProtectedFiles: Sendable {
  /// A file and what it is, in words for the refusal ("the database", "the -wal file of the
  /// database of ledger 'fam'").
  public struct Entry: Sendable, Equatable {
    /// Absolute, its folder resolved (`OutputFile.absolute`): what paths are compared with.
    public let path: String
    /// As the user or the directory spelled it: what the refusal shows.
    public let shown: String
    public let what: String
  }

  public private(set) var entries: [Entry] = []

  public init() {}

  /// Adds the database at `path` (skipped for `:memory:` and server URLs) with its side files.
  public mutating func addDatabase(_ path: String?, named name: String) {
    guard let path, path != ":memory:", !ExpenseService.isServerURL(path) else { return }
    let absolute = OutputFile.absolute(path)
    guard !entries.contains(where: { $0.path == absolute }) else { return }
    entries.append(Entry(path: absolute, shown: path, what: name))
    for suffix in ["-wal", "-shm", "-journal"] {
      entries.append(Entry(path: absolute + suffix, shown: path + suffix, what: "the \(suffix) file of \(name)"))
    }
  }

  /// Adds a file the command reads (the file being imported).
  public mutating func addInput(_ path: String) {
    entries.append(Entry(path: OutputFile.absolute(path), shown: path, what: "the input file"))
  }

  /// The databases a SQLite main file at `main` knows: itself and every ledger file it
  /// registers. A main file that cannot be read registers nothing more (the file itself is
  /// still protected).
  public mutating func addMainFile(_ main: String, directory: (any LedgerStore)?) {
    addDatabase(main, named: "the main database")
    guard let directory, let names = try? directory.ledgerNames() else { return }
    for name in names where name != DirectoryName.defaultLedger {
      addDatabase(LedgerFiles.path(of: name, besides: main), named: "the database of ledger '\(name)'")
    }
  }

  /// The entry `path` is, if any: the same inode when both exist (hard links, symbolic links),
  /// else the same resolved path (a `-wal` that is not there right now is still the database's).
  public func entry(for path: String) -> Entry? {
    let target = OutputFile.absolute(path)
    let resolved = OutputFile.resolved(target)
    return entries.first { OutputFile.same(target, $0.path) || OutputFile.same(resolved, $0.path) }
  }
}

extension ExpenseService {
  /// Every database this service knows (see `ProtectedFiles`), plus `inputs`.
  public func protectedFiles(inputs: [String] = []) -> ProtectedFiles {
    var files = ProtectedFiles()
    files.addDatabase(store.filePath, named: "the database")
    if let main = directory.filePath { files.addMainFile(main, directory: directory) }
    for input in inputs { files.addInput(input) }
    return files
  }

  /// The files of the SQLite database at `path` and of every ledger it registers, read without
  /// a lock (nothing is created when there is no database there).
  public static func protectedFiles(ofDatabaseAt path: String, stores: any StoreOpening) -> ProtectedFiles {
    var files = ProtectedFiles()
    guard !isServerURL(path) else { return files }
    let store =
      FileManager.default.fileExists(atPath: path)
      ? try? stores.open(path, access: .read, wait: 10, ledger: nil).store : nil
    files.addMainFile(path, directory: store)
    return files
  }

  /// An `OutputFile` at `path` that is none of the files this service knows.
  public func outputFile(path: String, force: Bool, inputs: [String] = []) throws(ServiceError) -> OutputFile {
    try OutputFile(path: path, force: force, protected: protectedFiles(inputs: inputs))
  }
}
