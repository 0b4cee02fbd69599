import ExpenseCore
import Foundation

/// Everything the application asks of storage, in domain terms: one ledger's expenses, budgets,
/// categories and kinds, rules, imports, settings and section states, and the server's tokens.
///
/// Why a protocol: `ExpenseService` (every use case) is written against this, never against
/// SQLite, so a second store (PostgreSQL) is a new conformance, not a copy of the service.
/// `AppDatabase` (the SQLite file) is today's conformance; `StoreContractTests` is the suite any
/// conformance must pass.
///
/// Calls are synchronous and each is atomic on its own (one transaction). A front end that must
/// not block its threads (the HTTP server) runs them on its own blocking pool; a store over an
/// asynchronous client may wait for it there.
public protocol LedgerStore: AnyObject, Sendable {
  /// The database file, when the store is one (output files must never replace it); `nil` for a
  /// store that is a server.
  var filePath: String? { get }

  // MARK: Expenses

  /// Expenses by date then id; all of them, or one month's, or one category's, at most `limit`.
  func expenses(month: Month?, category: String?, limit: Int?) throws -> [Expense]
  /// Expenses dated from `first` through `last` (either open), oldest first (by date then id),
  /// for exports.
  func expenses(from first: CivilDate?, through last: CivilDate?) throws -> [Expense]
  /// Runs `body` with the expenses of one consistent state of the store (one read
  /// transaction), to be read row by row (`ExpenseSnapshot.forEachExpense`), as many times as
  /// `body` needs: `list` and `export` stream through it. Errors `body` throws that are not the
  /// store's (a closed output) are rethrown unchanged.
  func withExpenseSnapshot<T>(_ body: (any ExpenseSnapshot) throws -> T) throws -> T
  /// How many expenses there are (in `month`, when given).
  func expenseCount(month: Month?) throws -> Int
  /// One page of expenses after `cursor` (an opaque string a previous page returned).
  func expensePage(month: Month?, category: String?, after cursor: String?, limit: Int) throws -> ExpensePage
  /// Expense `id` as stored, with where its category came from (`categorySource`).
  func expense(id: Int64) throws -> Expense?
  /// Stores a hand-typed expense and returns it with its id.
  func addExpense(_ expense: Expense) throws -> Expense
  /// Applies `change` to expense `id` and returns the expense as stored. A part of a split
  /// transaction keeps its amount and date (`StoreError.splitPart`).
  func editExpense(id: Int64, _ change: ExpenseEdit) throws -> Expense
  /// Deletes these expenses, all or none; returns them as they were. A part of a split
  /// transaction goes only with all its parts: named, or added when `wholeSplits`.
  func deleteExpenses(ids: [Int64], wholeSplits: Bool) throws -> [Expense]
  /// The rows with these ids as stored (ids with no row are left out, in no error), with every
  /// other part of their split sets and the other side of their transfer pairs (and theirs, to
  /// the end), each row with its split set, and every pair one of them is in: what an undo must
  /// take out and put back together.
  func rowSnapshot(ids: [Int64]) throws -> RowSnapshot
  /// Puts these rows back as they were: their ids, keys, provenance, split sets and pairs,
  /// with the rollup moved by exactly them. A row whose id is stored is refused
  /// (`StoreError.keyTaken`), and so is one whose key another row holds; nothing is written then.
  func restoreRows(_ snapshot: RowSnapshot) throws

  // MARK: What reports read

  /// Monthly totals per (currency, category) from `first` through `last`, with day-by-day
  /// outflows when `daily`.
  func monthlyTotals(from first: Month, through last: Month, daily: Bool) throws -> [CategoryMonthTotal]
  /// The first month with data, per currency.
  func historyStart() throws -> [Currency: Month]
  /// The latest month with data.
  func latestMonth() throws -> Month?

  // MARK: Budgets, categories, rules

  func budgets() throws -> [Budget]
  func saveBudget(_ budget: Budget) throws
  func removeBudget(category: String, month: Month?, currency: Currency?) throws
  func categoryKinds() throws -> [String: CategoryKind]
  func categories() throws -> [CategorySummary]
  func categoryNames() throws -> CategoryNames
  func setCategoryKind(_ name: String, kind: CategoryKind) throws
  /// Forgets the kind stored under exactly `name` (an undone `set-kind`: the category reads as
  /// it did before one was stored); nothing when none is.
  func removeCategoryKind(_ name: String) throws
  /// Forgets a category no expense uses; `false` when there was nothing to forget.
  func forgetCategory(_ name: String) throws -> Bool
  func rules() throws -> [CategoryRule]
  func addRule(pattern: String, category: String, field: CategoryRule.Field) throws -> CategoryRule
  func putRule(id: Int64, pattern: String, category: String, field: CategoryRule.Field) throws -> CategoryRule
  func removeRule(id: Int64) throws
  /// Re-categorizes, in ONE write transaction, the rows whose category came from one of
  /// `sources`: `decide` (the service's policy, `ExpenseService.applyRules`) sees each row and
  /// returns its new category, or nil to leave it; a changed row takes `source`, and the rollup
  /// moves by exactly what moved. With `dryRun` every row is shown and nothing is kept.
  func recategorize(
    from sources: [CategorySource], as source: CategorySource, dryRun: Bool, _ decide: (RecategorizeRow) -> String?
  ) throws

  // MARK: Imports

  /// Runs `body` with a writer of one file's rows inside ONE transaction: if `body` throws,
  /// nothing of the file is written; with `dryRun` everything runs and nothing is kept.
  func importRows<T>(
    sourceFile: String, dryRun: Bool, explainLimit: Int, importedAt: Date?, _ body: (any ImportWriter) throws -> T
  ) throws -> T
  func imports() throws -> [ImportRecord]
  /// The schema version of this store's data (SQLite's `user_version`, PostgreSQL's
  /// `schema_version`), as this build writes it: what `/health` reports.
  var schemaVersion: Int { get }
  /// The accounts the rows name, by name, with their rows and span.
  func accounts() throws -> [AccountSummary]
  /// Gives every row of account `from` the name `to`, and remembers it (`AccountNames`, as
  /// are the names that already led to `from`), so later imports of `from` store `to`; one
  /// transaction. Returns how many rows were renamed.
  func renameAccount(_ from: String, to: String) throws -> Int
  /// The names imports store instead of the names files give (`renameAccount`).
  func accountNames() throws -> [String: String]
  /// Every transfer pair the imports matched, in the order they were made.
  func transferPairs() throws -> [TransferPair]
  /// Undoes the pair expense `id` is one side of: both rows get back the category they had
  /// before (`notPaired` when it is in none); one transaction.
  func unpairTransfer(id: Int64) throws -> TransferPair
  /// Removes the rows import `id` added; returns how many.
  func removeImport(id: Int64) throws -> Int

  // MARK: Settings, profiles, section states

  func setting(_ key: String) throws -> String?
  func setSetting(_ key: String, _ value: String) throws
  /// Forgets setting `key` (an undone change gives back "never set"); nothing when none is.
  func removeSetting(_ key: String) throws
  func profile(named name: String) throws -> String
  func profileNames() throws -> [String]
  func saveProfile(name: String, json: String) throws
  func sectionStates() throws -> [String: Bool]
  func saveSectionStates(_ states: [String: Bool]) throws
  /// Forgets the saved states stored under these keys (one user's: `SectionService`).
  func removeSectionStates(_ keys: [String]) throws

  // MARK: Records: small records the service defines (`StoredRecord`)

  /// Every record of `kind`, by id.
  func records(kind: String) throws -> [StoredRecord]
  /// Stores `body` as a new record of `kind` under the kind's next id (never one given before,
  /// removed ones included) and returns it.
  func addRecord(kind: String, body: String) throws -> StoredRecord
  /// Record `id` of `kind`, if stored (one body read, however many records the kind holds).
  func record(kind: String, id: Int64) throws -> StoredRecord?
  /// Puts a removed record back under its own id (an undone removal); the id was given by this
  /// store before, so the kind's next id stays past it. Nothing when a record has the id.
  func restoreRecord(_ record: StoredRecord) throws
  /// Removes record `id` of `kind`; false when there is none.
  func removeRecord(kind: String, id: Int64) throws -> Bool

  // MARK: The directory: ledgers, users, memberships and tokens

  // A PostgreSQL database has one directory for all its ledgers; a SQLite setup keeps it in the
  // main file (the `default` ledger's), and a ledger file beside it leaves these to that file.

  /// Every ledger's name.
  func ledgerNames() throws -> [String]
  /// Makes ledger `name` (empty), owned by `local`; `ledgerExists` when taken.
  func createLedger(_ name: String, at time: String) throws
  /// Every user's role in every ledger.
  func members() throws -> [Membership]
  /// Adds the user (made when new) to the ledger with this role, or changes their role there;
  /// `lastOwner` when that would leave the ledger without an owner.
  func setMember(_ membership: Membership) throws
  /// Takes the user out of the ledger (`notAMember`, `lastOwner`).
  func removeMember(user: String, ledger: String) throws
  /// Changes whenever a token, user, membership or ledger changes, in any process: what the
  /// server's cache of tokens is checked against on every request.
  func directoryStamp() throws -> Int64

  /// Stores a token of `token.user` on `token.ledger` (`notAMember` unless the user is one).
  /// Names are unique in the directory.
  func createToken(_ token: APIToken, hash: String) throws
  /// Every token of every ledger, with its user's role now.
  func tokens() throws -> [APIToken]
  /// The token stored under `hash`, whatever its ledger or state, with its user's role now.
  func token(hash: String) throws -> APIToken?
  func revokeToken(name: String, at time: String) throws

  // MARK: Idempotency and change tracking

  func idempotentResponse(token: String, key: String) throws -> IdempotentResponse?
  func saveIdempotentResponse(_ response: IdempotentResponse, token: String, key: String, at time: String) throws
  /// Runs `body` once for `key` of `token` across every process serving this store, and stores
  /// its answer with what it wrote: the first caller runs it; a caller that finds the key
  /// finished gets the stored answer; one that finds it running, `.running`. If `body` throws
  /// (or the process dies), nothing of it is kept and the key is free again.
  /// (`LedgerStore+Defaults.swift` has the one-process version.)
  func runOnce(
    token: String, key: String, requestHash: String, at time: String, _ body: () throws -> IdempotentResponse
  ) throws -> IdempotentOutcome
  /// Grows with every write to what the API serves; survives restarts.
  func revision() throws -> Int64
  /// Changes whenever anything is committed by anyone (cheap: asked per request).
  func changeStamp() throws -> Int64
  /// The change stamps of the ledgers named (their `changeStamp()`; a ledger not found is left
  /// out) and the directory's (`directoryStamp()`), in ONE read, or nil when this store reads
  /// each alone (`LedgerStore+Defaults`): what a server asks for all requests waiting at once.
  func stamps(of ledgers: [String]) throws -> LedgerStamps?

  /// Runs `body` so that the store calls it makes read and write one state that no other writer,
  /// in any process, changes meanwhile: a check and the update it guards, as If-Match needs.
  /// Both stores keep nothing of `body` if it throws: ONE write transaction (SQLite: `BEGIN
  /// IMMEDIATE`; PostgreSQL: the ledger's row lock), which the store's calls inside join.
  func atomically<T>(_ body: () throws -> T) throws -> T
  /// Runs `body`, which only reads, so that the store calls it makes see one committed state: a
  /// report's several reads never see half of another process's import. (`PostgresStore`:
  /// one `REPEATABLE READ` read-only transaction; `LedgerStore+Defaults.swift` has the plain
  /// version.)
  func consistently<T>(_ body: () throws -> T) throws -> T

  // MARK: The whole ledger (`expenses copy`)

  /// Runs `body` with everything the ledger holds, read in ONE read transaction: the small
  /// tables as a value, the expenses through a reader that hands them over in batches in key
  /// order (so a million rows are never in memory at once).
  func readLedger<T>(_ body: (LedgerContents, any StoredExpenseReader) throws -> T) throws -> T
  /// Writes `contents` and the expenses `expenses` hands to its sink (batches in key order)
  /// into this ledger, which must be empty (`StoreError.ledgerNotEmpty`), in ONE transaction:
  /// all of it or, on any error (the source's included), nothing. Ids, keys, counters and
  /// provenance are kept as given; rollups are built from the rows.
  func loadLedger(_ contents: LedgerContents, expenses: (_ sink: ([StoredExpense]) throws -> Void) throws -> Void)
    throws

  // MARK: Health

  /// Checks the stored data (integrity, rollups, values) without changing it.
  func check() throws -> CheckReport
  /// Rebuilds what `check` found out of step and can be rebuilt from the rows.
  func repairRollups() throws -> (rebuilt: [String], report: CheckReport)
  /// Writes a consistent copy of the whole store to the new file `path`.
  func backup(into path: String) throws
}

/// Stores one file's rows during `LedgerStore.importRows`: the import's hot path, a batch of
/// about a thousand rows per call.
public protocol ImportWriter: AnyObject {
  /// Called for each row with what became of it (dry runs list rows from it).
  var onOutcome: ((_ row: ImportedRow, _ outcome: ImportOutcome) -> Void)? { get set }
  /// Called once for each batch written, with which of its rows were new (`isNew[i]` for
  /// `batch.rows[i]`), when its rows are stored: the matching reads them there, in place (a
  /// call and a copy of every row cost a first import of a million rows 7%).
  var onBatchWritten: ((_ batch: PreparedBatch, _ isNew: [Bool]) -> Void)? { get set }
  var inserted: Int { get }
  var duplicates: Int { get }
  /// Duplicates explained (up to the explain limit): which line, and where the stored row came from.
  var explained: [ImportDuplicate] { get }
  var lastDate: CivilDate? { get }
  /// The import's record id once rows were added.
  var recordID: Int64? { get }
  func write(_ batch: PreparedBatch) throws
  /// Saves an import profile in the import's transaction (`--save-profile`: both or neither).
  func saveProfile(name: String, json: String) throws
  /// Adds one of the service's records (`LedgerStore.addRecord`) in the import's transaction:
  /// the file's statement balances, stored with its rows or not at all. Nothing in a dry run.
  func addRecord(kind: String, body: String) throws
  /// Gives these categories the kind transfer where they have no kind yet (a statement's
  /// transfers between the user's own accounts), in the import's transaction.
  func markTransfers(_ categories: Set<String>) throws
  /// The days the ledger held rows on before this import began (nil when it held none): the
  /// service keeps the import's rows near it for matching (`neighbours`), and no others.
  var storedSpan: ClosedRange<CivilDate>? { get }
  /// Stores every row written so far and reports each to `onOutcome` and `onBatchWritten` (a writer may gather
  /// batches): what the matching needs before it reads.
  func storeWritten() throws
  /// The rows stored before this import began, dated `first` through `last`, whose amount's
  /// magnitude is one of `magnitudes`: read in the import's transaction.
  func neighbours(from first: CivilDate, through last: CivilDate, magnitudes: Set<Int64>) throws -> [NeighbourRow]
  /// Takes back rows this import added (by key): not stored, not counted in `inserted`. A dry
  /// run only counts.
  func withdraw(keys: [Int64]) throws
  /// Makes each link one transfer pair: both rows in `category` (the stored spelling of
  /// `Transfers`, source `.transfer`), their categories before kept for `unpairTransfer`. Rows
  /// of this import or stored before; a dry run writes nothing.
  func pairTransfers(_ links: [TransferLink], category: String) throws
  /// The keys stored before this import began, for the parse thread (`StoredKeys`), or nil
  /// (the writer then checks every row). Asked once, before the first row is parsed; closed
  /// with `closeStoredKeys` once parsing has stopped, before the import commits.
  func storedKeysBefore() throws -> (any StoredKeys)?
  func closeStoredKeys()
  /// Counts rows the parse thread found among `storedKeysBefore` as duplicates, and explains
  /// the first ones (by line, with `write`'s own) as `write` does.
  func recordStored(_ rows: [StoredRow]) throws
}

/// What happened to one imported row.
public enum ImportOutcome: Sendable, Equatable {
  case inserted
  case duplicate
}

/// A row skipped as a duplicate and the stored row it duplicates, for the summary.
public struct ImportDuplicate: Sendable, Hashable, Codable {
  /// Line in the file being imported.
  public var line: Int
  /// Where the stored twin came from (`file:line`, or `added by hand`).
  public var existingSource: String

  public init(line: Int, existingSource: String) {
    self.line = line
    self.existingSource = existingSource
  }
}

/// Change stamps read together (`LedgerStore.stamps(of:)`).
public struct LedgerStamps: Sendable, Equatable {
  public var directory: Int64
  /// By ledger name.
  public var ledgers: [String: Int64]

  public init(directory: Int64, ledgers: [String: Int64]) {
    self.directory = directory
    self.ledgers = ledgers
  }
}

extension LedgerStore {
  /// Where the category of expense `id` came from; `nil` when there is no such expense.
  public func categorySource(id: Int64) throws -> CategorySource? { try expense(id: id)?.categorySource }

  /// Forgets every saved section state, in one transaction.
  public func resetSectionStates() throws { try atomically { try removeSectionStates(Array(sectionStates().keys)) } }

  /// Deletes these expenses, all or none; a part of a split transaction only with all its parts.
  public func deleteExpenses(ids: [Int64]) throws -> [Expense] { try deleteExpenses(ids: ids, wholeSplits: false) }
}
