import ExpenseStore
import Foundation
import Hummingbird

/// `GET /health`: answers 200 when the database can be read, 503 when not; needs no token.
enum HealthRoute {
  static func respond(_ backend: any ExpenseBackend) async throws -> Response {
    let version: Int
    do {
      version = try await backend.read { service in
        _ = try service.revision()
        return service.schemaVersion
      }
    } catch {
      throw APIProblem(status: .serviceUnavailable, detail: "the database cannot be read")
    }
    // The serving store's schema: SQLite's, or PostgreSQL's when the server serves that.
    let body = "{\"schemaVersion\":\(version),\"status\":\"ok\"}"
    return Response(
      status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
  }
}
