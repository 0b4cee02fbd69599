import ExpenseStore
import PostgresNIO
import TestSupport
import Testing

@testable import ExpensePostgres

/// The test server itself: it starts, takes connections on its private socket, and gives each
/// test a database of its own.
@Suite struct PostgresServerTests {
  @Test func aFreshDatabaseAnswers() throws {
    let url = try PostgresServer.shared().makeDatabase()
    let location = try #require(PostgresLocation(url: url))
    let connection = try BlockingConnection(location)
    let rows = try connection.query("SELECT 1::bigint AS one")
    #expect(try rows.first?.decode(Int64.self) == 1)
  }

  @Test func urlsKeepTheirPasswordOutOfEveryMessage() throws {
    let location = try #require(PostgresLocation(url: "postgres://me:s3cret@db.example:6543/books"))
    #expect(location.password == "s3cret" && location.port == 6543 && location.database == "books")
    #expect(location.redacted == "postgres://me@db.example:6543/books")
    #expect(PostgresLocation(url: "postgres://me@/books?host=/run/postgresql")?.socketDirectory == "/run/postgresql")
    #expect(PostgresLocation(url: "postgres://db.example/books") == nil, "a user is needed")
    #expect(PostgresLocation(url: "/tmp/file.sqlite") == nil)
  }

  @Test func aMissingDatabaseIsNamedWithoutItsPassword() throws {
    let server = try PostgresServer.shared()
    let url = "postgres://postgres:hunter2@/nothing_here?host=\(server.socketDirectory)"
    let location = try #require(PostgresLocation(url: url))
    #expect(throws: StoreError.noDatabase(path: location.redacted)) { try BlockingConnection(location) }
  }
}
