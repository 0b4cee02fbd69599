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
    let location = try RowLevelSecurityTests.ownedDatabase(connectionLimit: 1)
    let first = try PostgresStore(location: location)
    #expect(throws: StoreError.busy(path: location.redacted)) { _ = try PostgresStore(location: location) }
    #expect(StoreError.busy(path: location.redacted).kind == .busy)
    withExtendedLifetime(first) {}
  }
}
