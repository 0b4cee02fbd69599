import Prometheus
import Synchronization

/// Where the reads a replica may serve went, and why: kept by `ReplicaBackend` and shown on
/// `/metrics` as `expenses_replica_reads_total{served_by, reason}`.
///
/// Why counted: whether the replica takes load is otherwise invisible (its answers are the
/// primary's bytes), and a replica that is always behind or down should show on a dashboard.
public final class ReplicaReads: Sendable {
  /// Why a read went where it went.
  public enum Outcome: String, Sendable, CaseIterable {
    /// The replica had replayed the request's stamp: it answered.
    case caughtUp = "caught_up"
    /// The replica had not yet replayed the request's stamp: the primary answered.
    case behind
    /// No connection to the replica was open (down, or reconnecting): the primary answered.
    case down
    /// The replica failed during the read (closed, cancelled by replay): the primary answered.
    case failed

    var servedBy: String { self == .caughtUp ? "replica" : "primary" }
  }

  private let counts = Mutex<[Outcome: Int]>([:])
  private let exported: [Outcome: Counter]

  init() {
    let name = MetricNameDescriptor(
      namespace: "expenses", metricName: "replica_reads", unitName: "total",
      helpText: "Reads the read replica may serve, by who served them and why")
    var exported: [Outcome: Counter] = [:]
    for outcome in Outcome.allCases {
      exported[outcome] = ServerMetrics.registry.makeCounter(
        descriptor: name, labels: [("served_by", outcome.servedBy), ("reason", outcome.rawValue)])
    }
    self.exported = exported
  }

  func count(_ outcome: Outcome) {
    counts.withLock { $0[outcome, default: 0] += 1 }
    exported[outcome]?.increment()
  }

  /// How many reads had `outcome` in this backend (the metric adds up every backend of the process).
  public func count(of outcome: Outcome) -> Int { counts.withLock { $0[outcome, default: 0] } }
}
