import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// How a request reaches the use cases: which ledger's services answer it (its token's), on
/// which queue, and whether a replica may. Handlers call `ExpenseService` functions through
/// the three runners, so an endpoint needs no method here: adding one takes the OpenAPI
/// document, a handler and a service function.
///
/// Why routing only: the use cases are written once, in the service. A backend that mirrored
/// them (one method per use case, again in every backend) was a second and a third API to
/// keep in step; a replica is a routing decision (`fromReplica`), not another implementation.
public protocol ExpenseBackend: Sendable {
  /// `body` with a read-only service of the request's ledger, acting for the request's user,
  /// off the concurrency pool; it never waits for the ledger's writer.
  func read<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T
  /// `body` with the writer of the request's ledger, one job at a time per ledger.
  func write<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T
  /// `body` on a read replica that has replayed every commit this request may have seen, else
  /// as `read` does: for what a replica may answer (the report, the listings).
  func fromReplica<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T

  /// The token stored under a SHA-256 hash, whatever its ledger or state (the directory's).
  func token(hash: String) async throws -> APIToken?
  /// The directory's change stamp (tokens, users, memberships), as of this call or later: what
  /// cached tokens are checked against on every request.
  func directoryStamp() async throws -> Int64
  /// Whose answers these are: the request's ledger and user (cached reports are kept apart by it).
  func audience() -> String
  /// The request's ledger's change stamp as of this call or later, never older: what caches are
  /// checked against once per request (read without blocking a thread of the concurrency pool).
  func currentStamp() async throws -> Int64
}

extension SavedSections {
  /// A strong validator of these states, for ETag and If-Match.
  public var tag: String {
    let states = SectionID.allCases.map { "\($0.rawValue)=\(isExpanded($0) ? 1 : 0)" }.joined(separator: ",")
    return "\"s-" + TokenHasher.hash(states + ";accordion=\(accordion)").prefix(16) + "\""
  }
}
