import Foundation
import Testing

/// The test command (`scripts/test`) on a machine that lacks an oracle: it must name what to
/// install and exit 69 without running a test, whether it cannot install (not root) or tries and
/// fails (no network). Every program it looks for is a stand-in in a private `PATH`, so nothing
/// is installed and no test runs; a stand-in `swift` leaves a mark if the suite was started.
@Suite struct TestCommandTests {
  /// A folder of stand-in programs: each prints nothing and succeeds, except those given.
  final class Machine {
    let cli: CLI
    let bin: URL
    var swiftMark: String { cli.directory.appendingPathComponent("swift-ran").path }

    init(missing: Set<String>, userID: Int, aptGetFails: Bool = false) throws {
      cli = try CLI()
      bin = cli.directory.appendingPathComponent("bin")
      try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
      // The script's own tools, real.
      for tool in ["dirname", "mkdir"] {
        let real = ["/usr/bin/\(tool)", "/bin/\(tool)"].first { FileManager.default.isExecutableFile(atPath: $0) }
        try FileManager.default.createSymbolicLink(
          atPath: bin.appendingPathComponent(tool).path, withDestinationPath: try #require(real))
      }
      try stub("id", "echo \(userID)")
      try stub("swift", "touch '\(swiftMark)'")
      try stub("apt-get", aptGetFails ? "echo 'E: could not resolve deb.debian.org' >&2; exit 100" : "exit 0")
      for program in ["python3", "chromium", "chromedriver", "hledger", "sqlite3", "tmux", "setpriv"]
      where !missing.contains(program) {
        try stub(program, "exit 0")
      }
    }

    func stub(_ name: String, _ body: String) throws {
      let path = bin.appendingPathComponent(name).path
      try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: false, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }

    /// Runs `bash scripts/test --filter Nothing` with only the stand-ins on `PATH`.
    func runTestCommand() throws -> CLI.Result {
      try CLI.runProcess(
        URL(fileURLWithPath: "/bin/bash"),
        [CLI.root.appendingPathComponent("scripts/test").path, "--filter", "Nothing"],
        environment: ["PATH": bin.path, "HOME": cli.directory.path, "LANG": "C.UTF-8"])
    }
  }

  @Test func withoutRootItNamesThePackagesAndRunsNoTest() throws {
    let machine = try Machine(missing: ["hledger", "tmux"], userID: 1000)
    let result = try machine.runTestCommand()
    #expect(result.code == 69, "\(result.stderr)")
    #expect(result.stderr.contains("the tests need these Debian packages: hledger tmux"), "\(result.stderr)")
    #expect(result.stderr.contains("sudo apt-get install -y hledger tmux"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: machine.swiftMark), "no test may run")
  }

  @Test func whenAptGetFailsItNamesThePackagesAndRunsNoTest() throws {
    let machine = try Machine(missing: ["chromedriver"], userID: 0, aptGetFails: true)
    let result = try machine.runTestCommand()
    #expect(result.code == 69, "\(result.stderr)")
    #expect(result.stderr.contains("could not install chromium-driver with apt-get"), "\(result.stderr)")
    #expect(result.stderr.contains("apt-get install -y chromium-driver"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: machine.swiftMark), "no test may run")
  }

  @Test func withoutSwiftItSaysSo() throws {
    let machine = try Machine(missing: [], userID: 1000)
    try FileManager.default.removeItem(atPath: machine.bin.appendingPathComponent("swift").path)
    let result = try machine.runTestCommand()
    #expect(result.code == 69, "\(result.stderr)")
    #expect(result.stderr.contains("swift is not on PATH"), "\(result.stderr)")
  }
}
