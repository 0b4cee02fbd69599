import Foundation
import Testing

/// The page `expenses serve` answers, in a real browser: headless Chromium driven by Selenium
/// through Tests/Tools/served-page-check.py logs in through the form with a token made by the
/// CLI, toggles sections and checks that `expenses report --format json` (the CLI, another
/// process) sees each toggle, that a reload shows it, and that accordion mode closes the other
/// section in the page, and that a read token's click is refused, said and undone. Its screenshot joins the static page's in .build/browser-artifacts/.
@Suite struct ServedPageBrowserTests {
  @Test func aToggleInTheServedPageIsWhatTheCLIReports() throws {
    guard let python = ExternalTool.require("python3", install: "apt-get install python3") else { return }
    let cli = try CLI()
    let demo = try cli.run(["demo", "--keep", cli.db], useDatabase: false)
    #expect(demo.code == 0, "\(demo.stderr)")
    let created = try cli.run(["token", "create", "browser", "--scope", "write"])
    #expect(created.code == 0, "\(created.stderr)")
    let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let reader = try cli.run(["token", "create", "viewer", "--scope", "read"])
    #expect(reader.code == 0, "\(reader.stderr)")
    let readToken = reader.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

    let server = try LiveServer(cli: cli)
    defer { server.stop() }
    let base = "http://127.0.0.1:\(try server.port())"
    let artifacts = BrowserPageTests.artifacts
    try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
    let screenshot = artifacts.appendingPathComponent("served-1440.png")
    try? FileManager.default.removeItem(at: screenshot)

    let checker = CLI.root.appendingPathComponent("Tests/Tools/served-page-check.py").path
    let result = try ExternalTool.run(
      python, [checker, base, token, readToken, CLI.binary.path, cli.db, artifacts.path])
    print(result.stdout.split(separator: "\n").filter { !$0.hasPrefix("ok ") }.joined(separator: "\n"))
    #expect(result.code == 0, "served-page-check: \(result.stderr)\n\(result.stdout.suffix(4000))")
    #expect(FileManager.default.fileExists(atPath: screenshot.path), "\(screenshot.path)")

    // The CLI, after the browser is gone: the page's last toggle (Trends, in accordion mode).
    let json = try cli.json(["report", "--month", "2026-10", "--today", "2026-10-20", "--format", "json"])
    let sections = ((json as? [String: Any])?["sections"] as? [[String: Any]]) ?? []
    let expanded = Dictionary(
      uniqueKeysWithValues: sections.compactMap { s in (s["id"] as? String).map { ($0, s["expanded"] as? Bool) } })
    #expect(expanded["trends"] == true && expanded["expenses"] == false, "\(expanded)")

    let code = server.terminate()
    #expect(code == 0, "serve exited \(code): \(server.stderr())")
    #expect(server.stderr().contains("PUT /v1/sections/trends 200"), "the page's saves are in the request log")
  }
}
