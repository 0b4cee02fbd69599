import Foundation
import Synchronization

/// A private PostgreSQL server for the tests of this process: `initdb` in a temporary folder,
/// started by `pg_ctl` on a Unix socket in that folder (no TCP port, so parallel test processes
/// and a system server never collide), stopped and removed when the process exits.
///
/// One server per test process, started on first use (`shared`); each test takes a fresh
/// database of its own (`makeDatabase`), so tests share nothing and may run in parallel.
///
/// `initdb` refuses to run as root: when the tests run as root the folder is given to the
/// `postgres` user and every server command runs as it (`runuser`).
public final class PostgresServer: Sendable {
  /// What went wrong starting the server, with what to do about it.
  public struct Unavailable: Error, CustomStringConvertible {
    public var description: String
  }

  /// The folder holding the server's socket (`?host=` of a URL).
  public let socketDirectory: String
  /// The superuser `initdb` made.
  public let user = "postgres"
  let folder: String
  let bin: String
  let runAs: String?

  /// The server of this process, started on first use; the error says what to install.
  public static func shared() throws -> PostgresServer { try started.get() }

  private static let started: Result<PostgresServer, any Error> = Result(catching: {
    () throws -> PostgresServer in
    let server = try PostgresServer()
    atexit { PostgresServer.stopAtExit() }
    return server
  })

  /// The PostgreSQL programs: version 15 (Debian's), else the newest installed.
  static func findBin() throws -> String {
    let root = "/usr/lib/postgresql"
    let preferred = "\(root)/15/bin"
    if FileManager.default.isExecutableFile(atPath: "\(preferred)/initdb") { return preferred }
    let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
    for version in versions.reversed() {
      let bin = "\(root)/\(version)/bin"
      if FileManager.default.isExecutableFile(atPath: "\(bin)/initdb") { return bin }
    }
    throw Unavailable(
      description:
        "PostgreSQL is not installed (no \(preferred)/initdb): install it (apt-get install postgresql), or run scripts/test, which does"
    )
  }

  private init() throws {
    bin = try Self.findBin()
    runAs = getuid() == 0 ? "postgres" : nil
    folder = NSTemporaryDirectory() + "expenses-postgres-\(getpid())-\(UUID().uuidString.prefix(8))"
    socketDirectory = folder + "/socket"
    let data = folder + "/data"
    try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
    if let runAs {
      try run("/bin/chown", ["-R", "\(runAs):", folder], asServer: false)
    }
    try run(
      "\(bin)/initdb",
      ["-D", data, "-U", user, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"])
    try run(
      "\(bin)/pg_ctl",
      [
        "-D", data, "-l", folder + "/server.log", "-w", "-t", "60", "-o",
        "-c listen_addresses='' -k \(socketDirectory) -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=500",
        "start",
      ])
    Self.running.withLock { $0 = self }
  }

  /// A new, empty database; returns its URL (no password: the server trusts its socket).
  public func makeDatabase() throws -> String {
    let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    try run("\(bin)/createdb", ["-h", socketDirectory, "-U", user, name])
    return "postgres://\(user)@/\(name)?host=\(socketDirectory)"
  }

  /// Runs `sql` in `database` through `psql` and returns what it prints (unaligned, tuples
  /// only: a value per line).
  @discardableResult
  public func query(_ sql: String, database: String) throws -> String {
    try Self.query(sql, database: database, socketDirectory: socketDirectory, server: self)
  }

  /// `query`, connected as the role `role` (an application's ordinary role, say).
  @discardableResult
  public func query(_ sql: String, database: String, as role: String) throws -> String {
    try Self.query(sql, database: database, socketDirectory: socketDirectory, server: self, role: role)
  }

  /// `psql` on the server whose socket is in `socketDirectory`, run by `server`'s user.
  static func query(
    _ sql: String, database: String, socketDirectory: String, server: PostgresServer, role: String? = nil
  ) throws -> String {
    try server.run(
      "\(server.bin)/psql",
      [
        "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-U", role ?? server.user, "-d", database,
        "-c", sql,
      ]
    ).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The database a URL of `makeDatabase` names.
  public static func databaseName(of url: String) -> String {
    let path = URLComponents(string: url)?.path ?? ""
    return path.hasPrefix("/") ? String(path.dropFirst()) : path
  }

  /// Runs a server program (as `postgres` when the tests run as root); its output is shown in
  /// the error when it fails, and returned when it succeeds.
  @discardableResult
  func run(_ program: String, _ arguments: [String], asServer: Bool = true) throws -> String {
    // Through bash, which closes every descriptor past stderr before it runs the program:
    // `pg_ctl start` leaves the server running with what it inherited, and Foundation's
    // `Process` learns that a child ended when the descriptors it gave it are all closed (this
    // one's, and those of any other test's process running meanwhile).
    let closeInherited =
      #"for f in /proc/$$/fd/*; do n=${f##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done; exec "$@""#
    let command = ["/bin/bash", "-c", closeInherited, "bash", program] + arguments
    let process = Process()
    if asServer, let runAs {
      process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
      process.arguments = ["-u", runAs, "--"] + command
    } else {
      process.executableURL = URL(fileURLWithPath: command[0])
      process.arguments = Array(command.dropFirst())
    }
    // A file, not a pipe: the server started keeps its output open.
    let log = folder + "/command-\(UUID().uuidString).log"
    guard FileManager.default.createFile(atPath: log, contents: nil), let output = FileHandle(forWritingAtPath: log)
    else { throw Unavailable(description: "cannot write \(log)") }
    defer {
      try? output.close()
      try? FileManager.default.removeItem(atPath: log)
    }
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let bytes = FileManager.default.contents(atPath: log) ?? Data()
    guard process.terminationStatus == 0 else {
      throw Unavailable(
        description:
          "\((program as NSString).lastPathComponent) failed (\(process.terminationStatus)): \(String(decoding: bytes, as: UTF8.self))"
      )
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static let running = Mutex<PostgresServer?>(nil)

  /// Stops the server at once (its data is thrown away) and removes the folder.
  private static func stopAtExit() {
    guard let server = running.withLock({ $0 }) else { return }
    _ = try? server.run("\(server.bin)/pg_ctl", ["-D", server.folder + "/data", "-m", "immediate", "-w", "stop"])
    try? FileManager.default.removeItem(atPath: server.folder)
  }
}
