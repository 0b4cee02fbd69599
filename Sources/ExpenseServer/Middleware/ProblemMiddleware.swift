import ExpenseCore
import ExpenseImport
import ExpenseService
import ExpenseStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OpenAPIRuntime

/// Turns every error thrown below it into an RFC 9457 problem response: the handlers' own
/// `APIProblem`s, the generated code's decoding errors (400 naming the field), Hummingbird's
/// errors (404 no route, 413 too large), and every error the service, the store and the
/// importer throw (each carries an `ErrorKind`, which `status(for:)` maps to its status, the
/// error's message the detail). Anything else is a 500 whose detail stays in the log, not in
/// the response.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    do {
      return try await next(request, context)
    } catch {
      let problem = ProblemMiddleware.problem(for: error)
      if problem.status == .internalServerError {
        context.logger.error("unexpected error", metadata: ["error": "\(ProblemMiddleware.loggable(error))"])
      }
      let requestID = context.logger[metadataKey: "hb.request.id"].map { "\($0)" }
      return ProblemDocument(problem: problem, requestID: requestID).response(headers: problem.headers)
    }
  }

  /// What the log says about an unexpected error: the error itself, never the request the
  /// generated code wraps it with (`ServerError` holds the whole request, Authorization and
  /// Cookie headers included), cleaned for one log line.
  static func loggable(_ error: any Error) -> String {
    var error = error
    while let wrapped = error as? ServerError {
      error = wrapped.underlyingError
    }
    return LogText.clean("\(type(of: error)): \(error)")
  }

  static func problem(for error: any Error) -> APIProblem {
    switch error {
    case let problem as APIProblem:
      return problem
    case let error as ServerError:
      return problem(fromGenerated: error)
    case let error as DecodingError:
      return fromDecoding(error)
    case let error as HTTPError:
      return APIProblem(status: error.status, detail: error.body ?? error.status.reasonPhrase)
    case let error as any HTTPResponseError:
      // NIO's too-many-bytes and the like: Hummingbird gives them a status.
      return APIProblem(status: error.status, detail: error.status.reasonPhrase)
    case let error as StoreError where error.kind == .usage:
      // The only request error of the store is a cursor this list did not give.
      return APIProblem(status: status(for: error.kind), detail: error.description, field: "cursor")
    case let error as any ClassifiedError:
      return classified(error)
    case let issue as ImportIssue:
      // A bad row thrown on its own (its `kind` is the row's problem): what `ImportError.row` is.
      return classified(ImportError.row(issue))
    default:
      return APIProblem(status: .internalServerError, detail: "the server failed; the request id is in its log")
    }
  }

  /// The generated code wraps what a handler or its parsing threw.
  static func problem(fromGenerated error: ServerError) -> APIProblem {
    let underlying = error.underlyingError
    if let decoding = underlying as? DecodingError {
      var problem = fromDecoding(decoding)
      if problem.field == "body", let field = UndecodableParameter.field(in: error.request) {
        problem.field = field
        problem.detail = "'\(field)' has a value of the wrong type"
      }
      return problem
    }
    if error.operationInput != nil || error.httpStatus == .internalServerError {
      // The input parsed (or the failure is not the runtime's): the handler's own error.
      return problem(for: underlying)
    }
    // The runtime's own errors (a missing parameter, a wrong content type) name the parameter
    // in their text; their status comes from the runtime.
    let text = "\(underlying)"
    return APIProblem(status: error.httpStatus, detail: text, field: quotedName(in: text))
  }

  /// A decoding error names the field by its coding path; an unreadable document is "body".
  static func fromDecoding(_ error: DecodingError) -> APIProblem {
    func path(_ context: DecodingError.Context, _ key: (any CodingKey)? = nil) -> String {
      let keys = context.codingPath + (key.map { [$0] } ?? [])
      let name = keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
      return name.isEmpty ? "body" : name
    }
    switch error {
    case .keyNotFound(let key, let context):
      return .badRequest("'\(path(context, key))' is required", field: path(context, key))
    case .typeMismatch(let type, let context):
      return .badRequest("'\(path(context))' must be \(describe(type))", field: path(context))
    case .valueNotFound(let type, let context):
      return .badRequest("'\(path(context))' must be \(describe(type)), not null", field: path(context))
    case .dataCorrupted(let context):
      let field = path(context)
      if let allowed = allowedValues[field] {
        return .badRequest("'\(field)' must be \(allowed.joined(separator: ", "))", field: field)
      }
      let detail =
        field == "body" ? "the body is not valid JSON" : "'\(field)' is not valid: \(context.debugDescription)"
      return .badRequest(detail, field: field)
    @unknown default:
      return .badRequest("the request could not be read", field: "body")
    }
  }

  /// The values a field of the document's enumerations takes, for a message that names them
  /// rather than the decoder's words.
  static var allowedValues: [String: [String]] {
    [
      "rollover": Components.Schemas.RolloverMode.allCases.map(\.rawValue),
      "period": Components.Schemas.BudgetPeriod.allCases.map(\.rawValue),
    ]
  }

  static func describe(_ type: Any.Type) -> String {
    switch type {
    case is Bool.Type: return "true or false"
    case is String.Type: return "a string"
    case is Int.Type, is Int64.Type, is Int32.Type: return "an integer"
    default: return "of type \(type)"
    }
  }

  /// The first name quoted in a runtime error's text ("... named 'limit' ..." / "named: limit").
  static func quotedName(in text: String) -> String? {
    if let start = text.firstIndex(of: "'"), let end = text[text.index(after: start)...].firstIndex(of: "'") {
      return String(text[text.index(after: start)..<end])
    }
    if let range = text.range(of: "named: ") { return String(text[range.upperBound...]) }
    return nil
  }

  /// A classified error's problem: the status of its kind, its message as the detail, with
  /// the import's options named as the query parameters the API takes (`spending=positive`,
  /// not `--spending positive`): the importer's hints are written for the command line.
  static func classified(_ error: any ClassifiedError) -> APIProblem {
    var problem = APIProblem(status: status(for: error.kind), detail: ImportFrontEnd.api.word(error.description))
    if problem.status == .serviceUnavailable { problem.headers[.retryAfter] = "1" }
    return problem
  }

  /// The one place a kind of failure becomes an HTTP status (each kind documents its own).
  /// 500 is for what no request can fix: an internal failure, or the server's own database
  /// missing, damaged or unreadable (those keep their message as the detail).
  static func status(for kind: ErrorKind) -> HTTPResponse.Status {
    switch kind {
    case .usage: return .badRequest
    case .invalidValue, .badData: return .unprocessableContent
    case .notFound, .noInput: return .notFound
    case .conflict, .cannotCreate: return .conflict
    case .unavailable, .io, .busy: return .serviceUnavailable
    case .damagedDatabase, .noDatabase, .databaseIO, .internal: return .internalServerError
    }
  }
}
