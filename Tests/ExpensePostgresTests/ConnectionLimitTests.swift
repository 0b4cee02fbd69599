import ExpenseCore
import ExpenseStore
import Foundation
import TestSupport
import Testing

@testable import ExpensePostgres

/// A server with no connection left to give (its `max_connections`, a role's or a database's
/// limit) is busy, not broken: the store says so with the busy error, which the CLI exits 75
/// (try again later) with and the API answers 503 with Retry-After.
@Suite struct ConnectionLimitTests {
  @Test func aServerWithNoConnectionLeftIsBusy() throws {
    let admin = try PostgresStore(url: try PostgresServer.shared().makeDatabase())
    let role = "lim_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
    try admin.connection.execute("CREATE ROLE \(role) LOGIN CONNECTION LIMIT 1")
    try admin.connection.execute("CREATE DATABASE \(role) OWNER \(role)")
    var location = admin.location
    location.user = String(role)
    location.database = String(role)
    location.ledger = nil
    let first = try PostgresStore(location: location)
    #expect(throws: StoreError.busy(path: location.redacted)) { _ = try PostgresStore(location: location) }
    #expect(StoreError.busy(path: location.redacted).kind == .busy)
    withExtendedLifetime(first) {}
  }
}
