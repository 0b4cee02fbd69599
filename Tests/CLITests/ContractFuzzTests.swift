import Foundation
import Testing

/// schemathesis against the real `expenses serve` on a scratch database, with a write token and
/// then a read token: every check (`--checks all`), a bounded number of examples per operation,
/// and any finding fails the test with schemathesis's report.
@Suite(.serialized) struct ContractFuzzTests {
  static var schemathesis: String? {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    return paths.map { "\($0)/schemathesis" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  @Test(arguments: ["write", "read"]) func theServerKeepsTheDocumentsContract(scope: String) throws {
    let tool = try #require(
      Self.schemathesis,
      "schemathesis is not on PATH: run scripts/test (it installs it into .build/oracles) or put .build/oracles/bin on PATH"
    )
    let cli = try CLI()
    #expect(try cli.run(["import", CLI.fixture("demo/bank.csv")]).code == 0)
    #expect(try cli.run(["budget", "set", "Groceries", "700"]).code == 0)
    let created = try cli.run(["token", "create", "fuzz", "--scope", scope])
    let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(created.code == 0 && token.hasPrefix("exp_"), "\(created.stderr)")
    let server = try LiveServer(cli: cli)
    defer { server.stop() }
    let port = try server.port()

    let run = Process()
    run.executableURL = URL(fileURLWithPath: tool)
    run.currentDirectoryURL = cli.directory
    run.arguments = [
      "--config-file", CLI.root.appendingPathComponent("Tests/Tools/schemathesis.toml").path,
      "run", CLI.root.appendingPathComponent("Sources/ExpenseServer/openapi.yaml").path,
      "--url", "http://127.0.0.1:\(port)", "--header", "Authorization: Bearer \(token)",
      "--checks", "all", "--max-examples", "12", "--seed", "20261020", "--generation-deterministic",
      "--workers", "1", "--phases", "examples,coverage,fuzzing", "--no-color",
    ]
    run.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
    let output = Pipe()
    run.standardOutput = output
    run.standardError = output
    try run.run()
    let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    run.waitUntilExit()
    #expect(run.terminationStatus == 0, "schemathesis found failures (\(scope) token):\n\(report.suffix(12_000))")
    #expect(server.process.isRunning, "the server died: \(server.stderr().suffix(2_000))")
  }
}
