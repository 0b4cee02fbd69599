import ExpenseImport
import ExpenseService
import ExpenseStore
import Foundation
import OpenAPIRuntime

extension APIHandler {
  func listImports(_ input: Operations.ListImports.Input) async throws -> Operations.ListImports.Output {
    let records = try await backend.fromReplica { try $0.imports() }.reversed().map { record in
      Components.Schemas.ImportRecord(
        id: record.id, file: record.file, importedAt: record.importedAt, rows: record.rows, firstId: record.firstId,
        lastId: record.lastId, firstDate: record.firstDate.description, lastDate: record.lastDate.description)
    }
    return .ok(.init(body: .json(.init(imports: records))))
  }

  func deleteImport(_ input: Operations.DeleteImport.Input) async throws -> Operations.DeleteImport.Output {
    let id = try Self.checkID(input.path.id)
    let removed = try await backend.write { try $0.removeImport(id: id) }
    return .ok(.init(body: .json(.init(removed: removed))))
  }

  func createImport(_ input: Operations.CreateImport.Input) async throws -> Operations.CreateImport.Output {
    // Every content type carries the file's bytes; the importer tells the format by content.
    let body: HTTPBody
    switch input.body {
    case .csv(let b), .applicationXOfx(let b), .applicationVnd_intu_qfx(let b), .applicationQif(let b), .xml(let b),
      .textXml(let b), .plainText(let b), .binary(let b):
      body = b
    }
    let request = try Self.importRequest(input.query)
    let token = Authenticated.token?.name ?? ""
    if let key = input.headers.idempotencyKey,
      !(1...200).contains(key.utf8.count) || !key.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
    {
      throw APIProblem.badRequest(
        "'Idempotency-Key' must be 1 to 200 visible ASCII characters (got \(key.utf8.count) bytes)",
        field: "Idempotency-Key")
    }
    let key = input.headers.idempotencyKey.map { token + "\u{0}" + $0 }
    if let key, !imports.begin(key) {
      throw APIProblem(
        status: .conflict, detail: "a request with this Idempotency-Key is still running; retry when it is done")
    }
    defer { if let key { imports.end(key) } }
    let upload = try await imports.receive(body, query: "\(input.query)")
    defer { imports.discard(upload) }
    let status = request.preview ? 200 : 201
    guard let idempotencyKey = input.headers.idempotencyKey else {
      let path = upload.path
      // A preview writes nothing: on a read connection, never queued behind the writer.
      let result =
        request.preview
        ? try await backend.read { try $0.importUpload(path: path, request) }
        : try await backend.write { try $0.importUpload(path: path, request) }
      let summary = Self.summary(result, request)
      return status == 201 ? .created(.init(body: .json(summary))) : .ok(.init(body: .json(summary)))
    }
    // The key is claimed in the store, so a second server sharing it cannot run it too, and the
    // answer is stored with the import (docs/scaling.md).
    let requestHash = upload.requestHash
    let path = upload.path
    let outcome = try await backend.write { service in
      try service.importOnce(path: path, request, token: token, key: idempotencyKey, requestHash: requestHash) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return IdempotentResponse(
          requestHash: requestHash, status: status, body: try encoder.encode(Self.summary($0, request)))
      }
    }
    let answer: IdempotentResponse
    switch outcome {
    case .running:
      throw APIProblem(
        status: .conflict, detail: "a request with this Idempotency-Key is still running; retry when it is done")
    case .stored(let first):
      guard first.requestHash == requestHash else {
        throw APIProblem.unprocessable(
          "this Idempotency-Key was used for another request (other options or body); use a new key",
          field: "Idempotency-Key")
      }
      answer = first
    case .ran(let response):
      answer = response
    }
    let summary = try JSONDecoder().decode(Components.Schemas.ImportSummary.self, from: answer.body)
    return answer.status == 201 ? .created(.init(body: .json(summary))) : .ok(.init(body: .json(summary)))
  }

  /// The query's options, checked as `expenses import` checks its flags.
  static func importRequest(_ query: Operations.CreateImport.Input.Query) throws -> UploadImport {
    var raw = RawImportFlags()
    raw.columns = query.columns
    raw.namedColumns = query.column ?? []
    raw.delimiter = query.delimiter
    raw.encoding = query.encoding
    raw.dateFormat = query.dateFormat
    raw.decimalMark = query.decimalMark
    raw.spending = query.spending?.rawValue
    raw.currency = query.currency
    raw.account = query.account
    raw.skipLines = query.skipLines
    raw.skipWhen = query.skipWhen ?? []
    raw.replaceInvalid = query.replaceInvalid == true
    raw.profile = query.profile
    let flags: ImportFlags
    do {
      flags = try ImportFlags.parse(raw)
    } catch {
      // The same check and words as `expenses import`, naming the query parameter.
      let field = error.flag.rawValue
      let detail = error.message(for: .api)
      throw error.isUnknownName
        ? APIProblem.unprocessable(detail, field: field) : APIProblem.badRequest(detail, field: field)
    }
    let name = (query.file ?? "upload.csv").split(separator: "/").last.map(String.init) ?? "upload.csv"
    var upload = UploadImport(
      fileName: name.isEmpty ? "upload.csv" : name, preview: query.preview ?? false,
      skipInvalid: query.skipInvalid ?? false, flags: flags, messageName: query.file ?? "the upload")
    upload.keepProbableDuplicates = query.keepProbableDuplicates ?? false
    return upload
  }

  /// The answer to an upload: the import's summary (the one result type the CLI prints too)
  /// in the document's shape; its reasons and warnings name query parameters, not flags.
  static func summary(_ summary: ImportSummary, _ upload: UploadImport) -> Components.Schemas.ImportSummary {
    let api = ImportFrontEnd.api
    return .init(
      importId: summary.importId, file: upload.fileName, preview: upload.preview, new: summary.new,
      duplicates: summary.duplicates, excluded: summary.excluded, rejected: summary.rejected,
      currency: summary.currency, currencyReason: summary.currencyReason, dialect: summary.dialect,
      rejectedRows: summary.rejectedReasons.map { .init(line: $0.line, reason: api.word($0.reason)) },
      excludedRows: summary.excludedDetails.map { .init(line: $0.line, reason: api.word($0.reason)) },
      warnings: summary.warnings.map(api.word), probableDuplicates: summary.probableDuplicates.count,
      probableDuplicateRows: summary.probableDuplicates.map {
        .init(line: $0.line, existingId: $0.existingId, existingSource: $0.existingSource)
      },
      transfersPaired: summary.transfers.count)
  }
}
