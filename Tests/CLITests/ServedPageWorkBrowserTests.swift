import Foundation
import Testing

/// The served page as a place to work, in a real browser (Tests/Tools/served-page-work-check.py:
/// headless Chromium through Selenium): months by links and a picker without JavaScript; a row
/// filed, the change undone, a budget set and a statement previewed then imported with it, each
/// checked with the CLI on the same database; no sideways scroll at 320, 768 and 1440 px; every
/// control reached with Tab; every outcome announced in the status region.
@Suite struct ServedPageWorkBrowserTests {
  @Test func aUserWorksInTheServedPage() throws {
    guard let python = ExternalTool.require("python3", install: "apt-get install python3") else { return }
    let cli = try CLI()
    let demo = try cli.run(["demo", "--keep", cli.db], useDatabase: false)
    #expect(demo.code == 0, "\(demo.stderr)")
    let created = try cli.run(["token", "create", "browser", "--scope", "write"])
    #expect(created.code == 0, "\(created.stderr)")
    let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

    let server = try LiveServer(cli: cli)
    defer { server.stop() }
    let base = "http://127.0.0.1:\(try server.port())"
    let artifacts = BrowserPageTests.artifacts
    try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)

    let checker = CLI.root.appendingPathComponent("Tests/Tools/served-page-work-check.py").path
    let result = try ExternalTool.run(python, [checker, base, token, CLI.binary.path, cli.db, artifacts.path])
    print(result.stdout.split(separator: "\n").filter { !$0.hasPrefix("ok ") }.joined(separator: "\n"))
    #expect(result.code == 0, "served-page-work-check: \(result.stderr)\n\(result.stdout.suffix(4000))")
    let code = server.terminate()
    #expect(code == 0, "serve exited \(code): \(server.stderr())")
    #expect(server.stderr().contains("POST /v1/history/"), "the page's undo is in the request log")
  }
}
