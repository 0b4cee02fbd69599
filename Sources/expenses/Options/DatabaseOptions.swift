import ArgumentParser
import ExpenseService
import ExpenseStore
import ExpenseStores
import Foundation

/// `--db PATH`, shared by every command that touches the database.
struct DatabaseOptions: ParsableArguments {
  @Option(
    name: .customLong("db"),
    help:
      "The SQLite database file, or a postgres:// URL (default: $EXPENSES_DB, else $XDG_DATA_HOME/expenses/expenses.sqlite)."
  )
  var path: String?

  @Option(
    name: .customLong("ledger"),
    help: ArgumentHelp(
      "The ledger to act on (default: $EXPENSES_LEDGER, else the URL's ledger=, else 'default'); see 'expenses ledger list'.",
      valueName: "name"))
  var ledger: String?

  @Option(
    name: .customLong("wait"),
    help: ArgumentHelp(
      "Seconds a write waits while another process writes to the database, then exits 75.",
      valueName: "seconds"))
  var wait: Double = 10

  /// The path in force: --db (after or before the subcommand), $EXPENSES_DB, XDG, ~/.local/share.
  var resolvedPath: String { DatabaseOptions.path(given: path) }

  /// The database path in force when `given` (--db after the subcommand) is nil: --db before
  /// it, $EXPENSES_DB, XDG, ~/.local/share. Also what a command without `--db` of its own
  /// (`demo --keep`) must never write over.
  static func path(given: String?) -> String {
    if let given { return given }
    if let path = GlobalArguments.leadingDatabase { return path }
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["EXPENSES_DB"], !path.isEmpty { return path }
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
      return data + "/expenses/expenses.sqlite"
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return home + "/.local/share/expenses/expenses.sqlite"
  }

  /// The service over the database for a command that writes (creating the database when
  /// missing, after removing what a `restore` killed half-way left beside it).
  func writing() throws -> ExpenseService {
    try ExpenseService.open(
      path: resolvedPath, access: .write, wait: wait, ledger: try checkedLedger(), stores: Stores())
  }

  /// The service for `import`: as `writing`, but a SQLite file is checked for damage beside
  /// the parse, and its commit refused on damage (`StoreAccess.writeCheckedAtCommit`).
  func importing() throws -> ExpenseService {
    try ExpenseService.open(
      path: resolvedPath, access: .writeCheckedAtCommit, wait: wait, ledger: try checkedLedger(), stores: Stores())
  }

  /// The service for an import that writes nothing (`--dry-run`, `--preview`): a missing
  /// database is not created (`ExpenseService.openForDryRun`).
  func dryRun() throws -> ExpenseService {
    try ExpenseService.openForDryRun(path: resolvedPath, wait: wait, ledger: try checkedLedger(), stores: Stores())
  }

  /// `resolvedLedger`, refused when the URL's `ledger=` names another.
  func checkedLedger() throws -> String? {
    guard let ledger = resolvedLedger else { return nil }
    if let named = ExpenseService.urlLedger(resolvedPath), named != ledger {
      throw ServiceError.ledgerTwice(url: named, flag: ledger)
    }
    return ledger
  }

  /// The ledger in force: --ledger, else $EXPENSES_LEDGER; nil leaves it to the database
  /// (a URL's `ledger=`, else `default`).
  var resolvedLedger: String? {
    if let ledger = ledger ?? GlobalArguments.leadingLedger { return ledger }
    let environment = ProcessInfo.processInfo.environment["EXPENSES_LEDGER"]
    return environment.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The service for a command that only reads: no lock is taken and nothing is written, so it
  /// answers while another process imports, and from a read-only file or folder.
  func reading() throws -> ExpenseService {
    try ExpenseService.open(
      path: resolvedPath, access: .read, wait: wait, ledger: try checkedLedger(), stores: Stores())
  }

  func validate() throws {
    guard wait >= 0, wait.isFinite else { throw ValidationError("--wait must be 0 or more seconds") }
    if let ledger = ledger ?? GlobalArguments.leadingLedger, !DirectoryName.isValid(ledger) {
      throw ValidationError(StoreError.invalidName(kind: "ledger", name: ledger).description)
    }
  }
}
