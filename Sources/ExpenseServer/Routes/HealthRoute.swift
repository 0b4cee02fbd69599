import ExpenseStore
import Foundation
import Hummingbird

/// `GET /health`: answers 200 when the database can be read, 503 when not; needs no token.
enum HealthRoute {
  static func respond(_ backend: any ExpenseBackend) async throws -> Response {
    do {
      _ = try await backend.revision()
    } catch {
      throw APIProblem(status: .serviceUnavailable, detail: "the database cannot be read")
    }
    let body = "{\"schemaVersion\":\(AppDatabase.schemaVersion),\"status\":\"ok\"}"
    return Response(
      status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
  }
}
