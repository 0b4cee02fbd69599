import HTTPTypes
import OpenAPIRuntime

/// An error a handler means the client to see: an HTTP status and what went wrong, sent as an
/// RFC 9457 problem (`application/problem+json`) by `ProblemMiddleware`.
struct APIProblem: Error, Sendable {
  var status: HTTPResponse.Status
  /// One sentence a person can act on.
  var detail: String
  /// The query parameter, header or body field at fault (400, 422).
  var field: String?
  /// Extra headers (`WWW-Authenticate` on 401).
  var headers: HTTPFields = [:]

  static func badRequest(_ detail: String, field: String) -> APIProblem {
    APIProblem(status: .badRequest, detail: detail, field: field)
  }

  static func notFound(_ detail: String) -> APIProblem { APIProblem(status: .notFound, detail: detail) }

  static func unprocessable(_ detail: String, field: String? = nil) -> APIProblem {
    APIProblem(status: .unprocessableContent, detail: detail, field: field)
  }

  static func unauthorized(_ detail: String) -> APIProblem {
    APIProblem(status: .unauthorized, detail: detail, headers: [.wwwAuthenticate: "Bearer realm=\"expenses\""])
  }
}

/// Lets the generated handlers' wrapper (`ServerError`) carry the status through as well.
extension APIProblem: HTTPResponseConvertible {
  var httpStatus: HTTPResponse.Status { status }
}
