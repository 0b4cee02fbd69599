import Foundation
import HTTPTypes
import Hummingbird

/// The body of an RFC 9457 problem response.
struct ProblemDocument: Encodable {
  var type = "about:blank"
  /// With `about:blank`, the status's reason phrase (RFC 9457 §4.2.1).
  var title: String
  var status: Int
  var detail: String
  var field: String?
  var requestId: String?

  init(problem: APIProblem, requestID: String?) {
    title = problem.status.reasonPhrase
    status = problem.status.code
    detail = problem.detail
    field = problem.field
    requestId = requestID
  }

  /// The response: the document, `Content-Type: application/problem+json` and any headers the
  /// problem carries.
  func response(headers extra: HTTPFields) -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
    var headers = extra
    headers[.contentType] = "application/problem+json"
    return Response(
      status: HTTPResponse.Status(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
  }
}
