import Foundation
import Synchronization

/// A streaming replica of a test `PostgresServer`: `pg_basebackup -R` of the primary into a
/// temporary folder, started as a hot standby on a Unix socket of its own (no TCP port), as
/// the `postgres` user when the tests run as root. It follows the primary through a
/// replication slot, so the primary keeps the WAL it has not replayed yet.
///
/// The tests pause its replay (`pauseReplay`), stop and restart it: each test makes its own.
/// `remove()` (or the end of the process) stops it and drops its slot.
public final class PostgresReplica: Sendable {
  public let primary: PostgresServer
  /// The folder holding the replica's socket (`?host=` of its URLs).
  public let socketDirectory: String
  let folder: String
  let slot: String
  var data: String { folder + "/data" }

  /// Copies `primary` (every database it has now; later ones arrive by replication) and starts
  /// the copy.
  public init(of primary: PostgresServer) throws {
    self.primary = primary
    let id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
    slot = "replica_\(id)"
    folder = NSTemporaryDirectory() + "expenses-replica-\(getpid())-\(id)"
    socketDirectory = folder + "/socket"
    try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
    if let runAs = primary.runAs {
      try primary.run("/bin/chown", ["-R", "\(runAs):", folder], asServer: false)
    }
    Self.made.withLock { $0.append(self) }
    // The slot first, holding the WAL from now: made by pg_basebackup (-C), it would be made
    // after the backup started, and another test's backup checkpointing meanwhile could remove
    // the WAL this one needs. -R writes primary_conninfo (the primary's socket), the slot's
    // name and standby.signal.
    try primary.query("SELECT pg_create_physical_replication_slot('\(slot)', true)", database: "postgres")
    try primary.run(
      "\(primary.bin)/pg_basebackup",
      [
        "-h", primary.socketDirectory, "-U", primary.user, "-D", data, "-R", "-X", "stream", "-c", "fast",
        "--no-sync", "-S", slot,
      ])
    try start()
  }

  /// Starts the (stopped) replica and waits until it accepts connections.
  public func start() throws {
    try primary.run(
      "\(primary.bin)/pg_ctl",
      [
        "-D", data, "-l", folder + "/server.log", "-w", "-t", "60", "-o",
        "-c listen_addresses='' -k \(socketDirectory) -c fsync=off -c hot_standby=on -c max_connections=500", "start",
      ])
  }

  /// Stops the replica (fast: its sessions are ended, as when a machine goes away).
  public func stop() throws {
    try primary.run("\(primary.bin)/pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"])
  }

  /// Freezes every process of the replica (SIGSTOP): it neither answers nor closes a connection,
  /// as a server cut off by the network. `thaw` lets them go on.
  public func freeze() throws { try signalEveryProcess(SIGSTOP) }
  public func thaw() throws { try signalEveryProcess(SIGCONT) }

  /// The postmaster (first line of `postmaster.pid`) and its children (from `/proc/PID/stat`).
  private func signalEveryProcess(_ signal: Int32) throws {
    let file = try String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8)
    guard let line = file.split(separator: "\n").first, let postmaster = pid_t(line) else {
      throw PostgresServer.Unavailable(description: "no postmaster.pid in \(data)")
    }
    var pids = [postmaster]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
      guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8)
      else { continue }
      // pid (comm) state ppid …: the command may hold spaces, so split after its ')'.
      guard let close = stat.lastIndex(of: ")") else { continue }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      if fields.count > 1, pid_t(fields[1]) == postmaster { pids.append(pid) }
    }
    for pid in pids { kill(pid, signal) }
  }

  /// The URL of the database `primaryURL` names, on this replica (`password` added, to check
  /// it is never shown: the test servers trust their sockets and ignore it).
  public func url(of primaryURL: String, password: String? = nil) -> String {
    let name = PostgresServer.databaseName(of: primaryURL)
    let user = password.map { "\(primary.user):\($0)" } ?? primary.user
    return "postgres://\(user)@/\(name)?host=\(socketDirectory)"
  }

  /// Runs `sql` on the replica (read-only) and returns what `psql` prints.
  @discardableResult
  public func query(_ sql: String, database: String) throws -> String {
    try PostgresServer.query(sql, database: database, socketDirectory: socketDirectory, server: primary)
  }

  /// Stops replaying the primary's WAL (it is still received): reads see the state of the moment.
  public func pauseReplay() throws { try query("SELECT pg_wal_replay_pause()", database: "postgres") }
  public func resumeReplay() throws { try query("SELECT pg_wal_replay_resume()", database: "postgres") }

  /// Waits until the replica has replayed everything the primary had written when this was
  /// called (up to `timeout` seconds); false when it has not.
  public func waitForReplay(timeout: Double = 60) throws -> Bool {
    let target = try primary.query("SELECT pg_current_wal_lsn()", database: "postgres")
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let done = try query("SELECT pg_last_wal_replay_lsn() >= '\(target)'::pg_lsn", database: "postgres")
      if done == "t" { return true }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return false
  }

  /// Stops the replica at once, drops its slot on the primary and removes its folder.
  public func remove() {
    _ = try? primary.run("\(primary.bin)/pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
    _ = try? primary.query(
      "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '\(slot)'",
      database: "postgres")
    try? FileManager.default.removeItem(atPath: folder)
    Self.made.withLock { $0.removeAll { $0 === self } }
  }

  /// Replicas not yet removed: stopped when the process exits (a test that failed half-way).
  private static let made: Mutex<[PostgresReplica]> = {
    atexit { PostgresReplica.removeAtExit() }
    return Mutex([])
  }()

  private static func removeAtExit() {
    for replica in made.withLock({ $0 }) { replica.remove() }
  }
}
