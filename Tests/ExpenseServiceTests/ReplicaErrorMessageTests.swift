import ExpenseCore
import ExpenseService
import Foundation
import Testing

/// Every message and kind of `ReplicaError` (`expenses serve --read-replica` refusing a URL at
/// start), pinned. `name(of:)` is exhaustive, so a new case must be pinned here.
@Suite struct ReplicaErrorMessageTests {
  static let pinned: [(ReplicaError, String, ErrorKind)] = [
    (
      .notAPostgresURL(option: "--read-replica"),
      "--read-replica is not a PostgreSQL URL: write postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE or postgres://USER@/DATABASE?host=SOCKET_DIR",
      .usage
    ),
    (
      .primaryNotPostgres(option: "$EXPENSES_READ_REPLICA"),
      "$EXPENSES_READ_REPLICA needs a PostgreSQL database (--db postgres://…): a SQLite file has no replicas\n  hint: serve the file without $EXPENSES_READ_REPLICA",
      .usage
    ),
    (
      .otherLedger(option: "--read-replica", replica: "home", primary: "default"),
      "--read-replica names ledger 'home', but --db serves ledger 'default'\n  hint: leave ?ledger= out of the replica's URL: it reads the ledger --db names",
      .usage
    ),
    (
      .otherCluster(replica: "postgres://app@replica/ledgers"),
      "postgres://app@replica/ledgers is not a replica of the --db database (its PostgreSQL cluster is another)\n  hint: give the URL of a streaming replica of the primary (pg_basebackup -R)",
      .usage
    ),
    (
      .notThere(replica: "postgres://app@replica/ledgers", ledger: "default"),
      "postgres://app@replica/ledgers has no ledger 'default' (not the primary's database, or not replayed there yet)\n  hint: check the database name in the replica's URL; a new replica serves once it has caught up",
      .noDatabase
    ),
    (
      .notAStandby(replica: "postgres://app@replica/ledgers"),
      "postgres://app@replica/ledgers is not a standby (it is not replaying the primary): its data could differ\n  hint: give the URL of a streaming replica of the primary (pg_basebackup -R), or serve without it",
      .usage
    ),
  ]

  static func name(of error: ReplicaError) -> String {
    switch error {
    case .notAPostgresURL: return "notAPostgresURL"
    case .primaryNotPostgres: return "primaryNotPostgres"
    case .otherLedger: return "otherLedger"
    case .otherCluster: return "otherCluster"
    case .notThere: return "notThere"
    case .notAStandby: return "notAStandby"
    }
  }

  @Test func everyCaseHasItsMessageAndKind() {
    for (error, message, kind) in Self.pinned {
      #expect(error.description == message)
      #expect(error.localizedDescription == message, "LocalizedError gives the same text")
      #expect(error.kind == kind, "\(Self.name(of: error))")
    }
    #expect(Set(Self.pinned.map { Self.name(of: $0.0) }).count == 6, "every case is pinned")
  }
}
