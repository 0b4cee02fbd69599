import ExpenseCore
import ExpenseImport
import ExpenseStore
import Foundation

extension ExpenseService {
  /// How a file will be read: `flags` laid over the saved profile they name (or the defaults).
  public func importOptions(_ flags: ImportFlags) throws -> ImportOptions { try flags.options(store: store) }

  /// Imports one file in one transaction (see `ImportService`); the import's time is the
  /// clock's unless the request says. `progress` is called on the parse thread.
  public func importFile(_ request: ImportRequest, progress: (@Sendable (ImportProgress) -> Void)? = nil) throws
    -> ImportSummary
  {
    var request = request
    if request.importedAt == nil { request.importedAt = clock.now() }
    if request.changedBy == nil { request.changedBy = changeAuthor }
    var summary = try ImportService(store: store, protected: protectedFiles()).run(request, progress: progress)
    // A dry run writes nothing of the file, but saving the profile was asked for.
    if request.dryRun, let name = request.saveProfileAs {
      try store.saveProfile(name: name, json: try request.options.profileJSON())
    }
    // The accounts whose balances the file stated, against their bank right away: a row
    // missing from the file or deleted before shows now, not at the next `accounts`.
    if !request.dryRun && !summary.balanceAccounts.isEmpty {
      for standing in try accountStandings() where summary.balanceAccounts.contains(standing.name) {
        for balance in standing.balances {
          summary.accountChecks.append("\(standing.name ?? "(no account)"): \(balance.bankWords)")
        }
      }
    }
    return summary
  }

  /// `import --preview`: the import run as a dry run (so rules, duplicates and exclusions are
  /// exactly what an import would do), listing its first `limit` rows.
  public func previewImport(_ request: ImportRequest, limit: Int) throws -> ImportSummary {
    var request = request
    request.dryRun = true
    request.previewLimit = limit
    request.saveProfileAs = nil
    return try importFile(request)
  }

  /// Imports an upload (a private temporary copy at `path`) as `POST /v1/imports` does, with
  /// every rejected and excluded row listed (the counts are always exact).
  public func importUpload(path: String, _ upload: UploadImport) throws -> ImportSummary {
    var request = ImportRequest(path: path, options: try importOptions(upload.flags))
    request.sourceName = upload.fileName
    request.messageName = upload.messageName
    request.skipInvalid = upload.skipInvalid
    request.keepProbableDuplicates = upload.keepProbableDuplicates
    request.dryRun = upload.preview
    request.detailLimit = ImportSummary.uploadDetailLimit
    request.previewLimit = 0
    return try importFile(request)
  }

  /// `importUpload` once for `key` of `token`, in every process serving the store: the first
  /// call imports and stores `respond`'s answer with the import (in its transaction, where the
  /// store allows); a later one with the key gets that answer (`.stored`), or `.running` while
  /// the first is still at work. `requestHash` tells a retry from another request under the
  /// same key.
  public func importOnce(
    path: String, _ upload: UploadImport, token: String, key: String, requestHash: String,
    respond: (ImportSummary) throws -> IdempotentResponse
  ) throws -> IdempotentOutcome {
    try runOnce(token: token, key: key, requestHash: requestHash) { try respond(try importUpload(path: path, upload)) }
  }

  /// The recorded imports, oldest first.
  public func imports() throws -> [ImportRecord] { try store.imports() }

  /// Removes the rows import `id` added, and the statement balances it brought, in one
  /// transaction; returns how many rows.
  public func removeImport(id: Int64) throws -> Int {
    try removeImportNoting(id: id).removed
  }

  /// Removes import `id` as `removeImport` does (the removal is a change `undo` reverses), and
  /// says which of its rows were edited by hand since: the removal took them too.
  public func removeImportNoting(id: Int64) throws -> (removed: Int, handEdited: [Int64]) {
    try recording("imports remove") {
      guard let record = try store.imports().first(where: { $0.id == id }) else { throw StoreError.importNotFound(id) }
      let removal = try removingImport(record)
      let summary = "imports remove #\(id) (\(record.file)): \(removal.removed) rows"
      let effect: History.Recorded = removal.effect.map { .effect($0) } ?? .tooBig(rows: removal.removed)
      return ((removal.removed, removal.handEdited), summary, effect)
    }
  }
}
