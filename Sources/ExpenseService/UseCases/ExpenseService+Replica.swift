import ExpenseCore
import ExpenseStore
import Foundation

/// A PostgreSQL streaming replica that `expenses serve --read-replica` reads from: the
/// replica's URL with the primary's ledger, and the primary's cluster it must belong to.
///
/// Why checked once, at start: a wrong URL is the operator's mistake, best refused before the
/// server answers anything; what is only unreachable may pass, and the server goes on without it.
public struct ReplicaTarget: Sendable {
  let location: PostgresLocation
  /// How the replica is opened (the primary's service's factory).
  let stores: any StoreOpening
  /// The primary's cluster (`ReplicatedStore.clusterIdentifier`): the replica's must be the same.
  let cluster: String
  /// The ledger read there (the primary's).
  let ledger: String
  /// The replica's URL as messages and logs may show it (no password).
  public var shown: String { location.redacted }
}

/// A replica URL that cannot serve this primary's reads.
public enum ReplicaError: ClassifiedError, Equatable, LocalizedError {
  /// The text given for the replica (`option` says where from) is not a PostgreSQL URL.
  case notAPostgresURL(option: String)
  /// The primary is a SQLite file, which has no streaming replica.
  case primaryNotPostgres(option: String)
  /// The replica's URL names another ledger than the primary serves.
  case otherLedger(option: String, replica: String, primary: String)
  /// The server at the replica's URL is another cluster, not a copy of the primary.
  case otherCluster(replica: String)
  /// The replica has no such database or ledger (another database, or one it has not replayed yet).
  case notThere(replica: String, ledger: String)
  /// The replica's server is not replaying anything (a standby promoted, or another primary).
  case notAStandby(replica: String)

  public var kind: ErrorKind {
    if case .notThere = self { return .noDatabase }
    return .usage
  }

  public var errorDescription: String? { description }

  public var description: String {
    switch self {
    case .notAPostgresURL(let option):
      return "\(option) is not a PostgreSQL URL: write postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
        + " or postgres://USER@/DATABASE?host=SOCKET_DIR"
    case .primaryNotPostgres(let option):
      return "\(option) needs a PostgreSQL database (--db postgres://…): a SQLite file has no replicas\n"
        + "  hint: serve the file without \(option)"
    case .otherLedger(let option, let replica, let primary):
      return "\(option) names ledger '\(replica)', but --db serves ledger '\(primary)'\n"
        + "  hint: leave ?ledger= out of the replica's URL: it reads the ledger --db names"
    case .otherCluster(let replica):
      return "\(replica) is not a replica of the --db database (its PostgreSQL cluster is another)\n"
        + "  hint: give the URL of a streaming replica of the primary (pg_basebackup -R)"
    case .notAStandby(let replica):
      return "\(replica) is not a standby (it is not replaying the primary): its data could differ\n"
        + "  hint: give the URL of a streaming replica of the primary (pg_basebackup -R), or serve without it"
    case .notThere(let replica, let ledger):
      return "\(replica) has no ledger '\(ledger)' (not the primary's database, or not replayed there yet)\n"
        + "  hint: check the database name in the replica's URL; a new replica serves once it has caught up"
    }
  }
}

extension ExpenseService {
  /// The replica at `url` for this service's ledger (`option` names the flag or variable it came
  /// from, for messages); reads this service's cluster. Throws `ReplicaError` for a URL that
  /// cannot name a replica of this store.
  public func replicaTarget(url: String, option: String) throws -> ReplicaTarget {
    guard let primary = store as? any ReplicatedStore else { throw ReplicaError.primaryNotPostgres(option: option) }
    guard var location = PostgresLocation(url: url) else { throw ReplicaError.notAPostgresURL(option: option) }
    if let named = location.ledger, named != primary.ledgerName {
      throw ReplicaError.otherLedger(option: option, replica: named, primary: primary.ledgerName)
    }
    location.ledger = primary.ledgerName == DirectoryName.defaultLedger ? nil : primary.ledgerName
    return ReplicaTarget(
      location: location, stores: stores, cluster: try primary.clusterIdentifier(), ledger: primary.ledgerName)
  }

  /// A read-only service on the replica; `ReplicaError.otherCluster` when it is not a copy of
  /// the primary, else the store's errors (an unreachable server, a database not there yet).
  /// The same replica, for ledger `name` of the same database.
  public static func replicaTarget(_ target: ReplicaTarget, ledger name: String) -> ReplicaTarget {
    var location = target.location
    location.ledger = name
    return ReplicaTarget(location: location, stores: target.stores, cluster: target.cluster, ledger: name)
  }

  public static func openReplica(_ target: ReplicaTarget, clock: ServiceClock = .system) throws -> ExpenseService {
    let store: any ReplicatedStore
    do {
      store = try target.stores.openReplica(target.location)
    } catch let error as StoreError where error.kind == .noDatabase {
      throw ReplicaError.notThere(
        replica: target.shown, ledger: target.ledger)
    }
    guard try store.clusterIdentifier() == target.cluster else {
      throw ReplicaError.otherCluster(replica: target.shown)
    }
    // A standby promoted into a primary keeps the cluster's identifier but not its data.
    guard try store.isStandby() else { throw ReplicaError.notAStandby(replica: target.shown) }
    return ExpenseService(store: store, stores: target.stores, clock: clock)
  }
}
