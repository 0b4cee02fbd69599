import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// Everything the HTTP server asks of storage, in domain terms and async.
///
/// Why a protocol: handlers see only this, whatever serves it (`ServiceBackend` over a SQLite
/// file, or over a PostgreSQL database that several server instances share: docs/scaling.md).
public protocol ExpenseBackend: Sendable {
  /// The token stored under a SHA-256 hash, whatever its ledger or state.
  func token(hash: String) async throws -> APIToken?
  /// The directory's change stamp (tokens, users, memberships), as of this call or later: what
  /// cached tokens are checked against on every request.
  func directoryStamp() async throws -> Int64
  /// Whose answers these are: the request's ledger and user (cached reports are kept apart by it).
  func audience() -> String
  /// The request's ledger's change stamp as of this call or later, never older: what caches are checked against
  /// once per request (read without blocking a thread of the concurrency pool).
  func currentStamp() async throws -> Int64
  /// The revision for `/v1/changes`: grows with every write, survives restarts.
  func revision() async throws -> Int64
  /// The schema version of the store the ledger is in (`/health`: the serving store's).
  func schemaVersion() async throws -> Int

  /// The report JSON, the bytes `expenses report --month M --today T --format json` prints.
  func reportJSON(month: Month, today: CivilDate) async throws -> String
  /// The served report page: `--format html`'s page with the script that saves toggles.
  func reportPage(month: Month, today: CivilDate) async throws -> String

  /// Saved section states and accordion mode.
  func sections() async throws -> SavedSections
  /// Applies `change` if the current states' tag is `ifMatch` (or `ifMatch` is nil), atomically
  /// with respect to the server's other writes; returns the new states.
  func updateSections(ifMatch: String?, _ change: SectionChange) async throws -> SavedSections

  func imports() async throws -> [ImportRecord]
  func removeImport(id: Int64) async throws -> Int
  /// Imports the file at `path` (a private temporary copy of the upload).
  func importFile(path: String, request: UploadImport) async throws -> ImportResult

  func expensePage(month: Month?, category: String?, after cursor: String?, limit: Int) async throws -> ExpensePage
  func expense(id: Int64) async throws -> Expense?
  func editExpense(id: Int64, _ change: ExpenseEdit) async throws -> Expense
  /// Deletes expense `id`; with `wholeSplit`, every part of its split transaction too.
  func deleteExpense(id: Int64, wholeSplit: Bool) async throws

  func budgets() async throws -> [Budget]
  func defaultCurrency() async throws -> Currency
  func saveBudget(_ budget: Budget) async throws -> Budget
  /// `ExpenseService.setBudget`: the currency defaulted in the write's own transaction.
  func setBudget(category: String, amountMinor: Int64, month: Month?, currency: Currency?) async throws -> Budget
  func removeBudget(category: String, month: Month?, currency: Currency?) async throws

  func categories() async throws -> [CategorySummary]
  func setCategoryKind(_ name: String, kind: CategoryKind) async throws
  func forgetCategory(_ name: String) async throws -> Bool

  func rules() async throws -> [CategoryRule]
  func putRule(id: Int64, pattern: String, category: String, field: CategoryRule.Field) async throws -> CategoryRule
  func removeRule(id: Int64) async throws

  /// Imports the file at `path` once for `key` of `token`, on every server sharing the store:
  /// `respond` makes the answer that is stored with the import (in its transaction, where the
  /// store allows); a finished key gives its stored answer, a running one `.running`.
  func importFileOnce(
    path: String, request: UploadImport, token: String, key: String, requestHash: String,
    respond: @escaping @Sendable (ImportResult) throws -> IdempotentResponse
  ) async throws -> IdempotentOutcome

  func idempotentResponse(token: String, key: String) async throws -> IdempotentResponse?
  func saveIdempotentResponse(_ response: IdempotentResponse, token: String, key: String) async throws
}

extension SavedSections {
  /// A strong validator of these states, for ETag and If-Match.
  public var tag: String {
    let states = SectionID.allCases.map { "\($0.rawValue)=\(isExpanded($0) ? 1 : 0)" }.joined(separator: ",")
    return "\"s-" + TokenHasher.hash(states + ";accordion=\(accordion)").prefix(16) + "\""
  }
}
