import Foundation
import Testing

/// `expenses serve` facing the network: the Host check (DNS rebinding), what it says about the
/// address it binds, how it fails to bind, a missing database, and bounded connections.
@Suite struct ServeExposureTests {
  /// A database with one token, so `serve` has something to open.
  static func prepared() throws -> CLI {
    let cli = try CLI()
    let created = try cli.run(["token", "create", "live", "--scope", "read"])
    #expect(created.code == 0, "\(created.stderr)")
    return cli
  }

  @Test func onLoopbackOnlyLoopbackHostsWithTheRightPortAndAllowedNamesAreAnswered() throws {
    let cli = try Self.prepared()
    let server = try LiveServer(cli: cli, arguments: ["--allowed-host", "budget.example"])
    defer { server.stop() }
    let port = try server.port()
    for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "budget.example", "127.1.2.3:\(port)"] {
      #expect(try RawConnection.get(port: port, path: "/health", host: host).status == 200, "\(host)")
    }
    for host in [
      "evil.example:\(port)", "evil.example", "127.0.0.1:\(port + 1)", "localhost", "127.0.0.1.evil.example",
    ] {
      for path in ["/health", "/metrics", "/login", "/v1/budgets"] {
        let reply = try RawConnection.get(port: port, path: path, host: host)
        #expect(reply.status == 421, "\(host) \(path): \(reply.text)")
        #expect(reply.text.contains("application/problem+json"), "\(reply.text)")
      }
    }
  }

  @Test func everyInterfaceIsAWarningAboutPlainHTTP() throws {
    let cli = try Self.prepared()
    let server = try LiveServer(cli: cli, arguments: ["--host", "0.0.0.0"])
    defer { server.stop() }
    let port = try server.port()
    let log = server.stderr()
    #expect(log.contains("warning: listening on every interface (0.0.0.0)"), "\(log)")
    #expect(log.contains("plain HTTP") && log.contains("TLS"), "\(log)")
    #expect(log.contains("serving on http://0.0.0.0:\(port)"), "\(log)")
    // Not a loopback bind: any Host is answered (the operator chose the network).
    #expect(try RawConnection.get(port: port, path: "/health", host: "budget.lan").status == 200)
  }

  @Test func aBusyPortOrABadHostExitsWithAMessageAndASysexitsCode() throws {
    let cli = try Self.prepared()
    let server = try LiveServer(cli: cli)
    defer { server.stop() }
    let port = try server.port()
    let busy = try cli.run(["serve", "--port", "\(port)"])
    #expect(busy.code == 69, "\(busy.stderr)")
    #expect(busy.stderr.contains("the port is in use"), "\(busy.stderr)")
    #expect(busy.stderr.contains("http://127.0.0.1:\(port)"), "\(busy.stderr)")
    let bad = try cli.run(["serve", "--port", "0", "--host", "no-such-host.invalid"])
    #expect(bad.code == 64, "\(bad.stderr)")
    #expect(bad.stderr.contains("no-such-host.invalid"), "\(bad.stderr)")
    let foreign = try cli.run(["serve", "--port", "0", "--host", "192.0.2.1"])
    #expect(foreign.code == 64, "\(foreign.stderr)")
    #expect(foreign.stderr.contains("not an address of this machine"), "\(foreign.stderr)")
  }

  @Test func aMissingDatabaseIsRefusedUnlessCreateIsGiven() throws {
    let cli = try CLI()
    let typo = cli.directory.appendingPathComponent("tpyo.sqlite").path
    let refused = try cli.run(["serve", "--port", "0", "--db", typo], useDatabase: false)
    #expect(refused.code == 66, "\(refused.stderr)")
    #expect(refused.stderr.contains(typo) && refused.stderr.contains("--create"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: typo))
    let server = try LiveServer(cli: cli, arguments: ["--create"])
    defer { server.stop() }
    let port = try server.port()
    #expect(try RawConnection.get(port: port, path: "/health", host: "127.0.0.1:\(port)").status == 200)
    #expect(FileManager.default.fileExists(atPath: cli.db))
  }

  @Test func idleConnectionsPastTheLimitDoNotStopTheServerAnswering() throws {
    let cli = try Self.prepared()
    let server = try LiveServer(cli: cli, arguments: ["--max-connections", "4", "--idle-timeout", "1"])
    defer { server.stop() }
    let port = try server.port()
    // Twice the limit, each left silent.
    let idle = try (0..<8).map { _ in try RawConnection(port: port) }
    let health = try RawConnection.get(port: port, path: "/health", host: "127.0.0.1:\(port)")
    #expect(health.status == 200, "\(health.text)")
    // The silent ones were closed by the idle timeout.
    for connection in idle { #expect(try connection.readToEnd().isEmpty) }
  }

  @Test func aConnectionThatNeverFinishesItsHeadersIsClosed() throws {
    let cli = try Self.prepared()
    let server = try LiveServer(cli: cli, arguments: ["--header-timeout", "1", "--idle-timeout", "600"])
    defer { server.stop() }
    let port = try server.port()
    let slow = try RawConnection(port: port)
    try slow.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: a")
    // Closed by the server without an answer (the read would throw if it stayed open).
    #expect(try slow.readToEnd().isEmpty)
    #expect(try RawConnection.get(port: port, path: "/health", host: "127.0.0.1:\(port)").status == 200)
  }
}
