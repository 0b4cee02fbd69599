import Foundation
import Testing

/// Runs `expenses browse` / `report --interactive` for real inside tmux: a shell in a detached
/// session of a given size, keys sent with `send-keys`, the screen read with `capture-pane`.
/// tmux is a hard requirement (`.ci/run` installs it): without it these tests fail, never skip.
final class TmuxScreen {
  let socket: String
  let directory: URL
  let session = "s"
  static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  init(directory: URL, width: Int, height: Int) throws {
    guard TmuxScreen.tmux != nil else {
      throw TmuxMissing()
    }
    self.directory = directory
    socket = directory.appendingPathComponent("tmux.sock").path
    // A plain sh with a fixed prompt, UTF-8, and no rc files: the pane starts the same everywhere.
    try run([
      "new-session", "-d", "-s", session, "-x", "\(width)", "-y", "\(height)", "-c", directory.path, "env", "-i",
      "PATH=/usr/bin:/bin",
      "HOME=\(directory.path)", "LANG=C.UTF-8", "TERM=tmux-256color", "PS1=$ ", "sh",
    ])
  }

  /// Ends the tmux server (and the shell in it). Called by each test before its folder goes.
  func stop() {
    guard !stopped else { return }
    stopped = true
    _ = try? run(["kill-server"])
  }
  private var stopped = false

  deinit { stop() }

  /// Runs tmux with `arguments` and returns its output; throws when it fails.
  ///
  /// Spawned and reaped with posix_spawn/waitpid, not `Process`: `new-session` forks the tmux
  /// server, which keeps every descriptor it inherited, and Foundation's `Process` waits for
  /// those to close (it would wait as long as the server lives).
  @discardableResult
  func run(_ arguments: [String]) throws -> String {
    let path = directory.appendingPathComponent("tmux-\(UUID().uuidString).out").path
    defer { unlink(path) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let words: [String] = [TmuxScreen.tmux!, "-S", socket, "-f", "/dev/null"] + arguments
    let settings: [String] = ["LANG=C.UTF-8", "PATH=/usr/bin:/bin", "TMUX_TMPDIR=\(directory.path)"]
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    let environment: [UnsafeMutablePointer<CChar>?] = settings.map { strdup($0) } + [nil]
    defer { (argv + environment).forEach { free($0) } }
    // The test runner's thread blocks some signals, and a spawned process inherits the mask:
    // the tmux server then ignored SIGTERM and its kill-server. Start it with none blocked and
    // every signal at its default.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, TmuxScreen.tmux!, &actions, &attributes, argv, environment)
    guard spawned == 0 else { throw TmuxFailed(arguments: arguments, output: String(cString: strerror(spawned))) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    // WIFEXITED and WEXITSTATUS, which Swift does not import as macros.
    if status & 0x7F != 0 || (status >> 8) & 0xFF != 0 { throw TmuxFailed(arguments: arguments, output: text) }
    return text
  }

  /// Types `text` and presses Enter (a shell command line).
  func type(_ text: String) throws {
    try run(["send-keys", "-t", session, "-l", text])
    try run(["send-keys", "-t", session, "Enter"])
  }

  /// Presses keys by tmux name (`j`, `Enter`, `Down`, `Escape`, `/`).
  func press(_ keys: String...) throws {
    for key in keys { try run(["send-keys", "-t", session, key]) }
  }

  /// The screen's text now.
  func screen() throws -> [String] {
    try run(["capture-pane", "-p", "-t", session]).split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
  }

  /// Waits (up to 20 s: a debug binary on a busy machine) until `condition` holds for the
  /// screen and the screen has settled, which it returns; fails the test with the last screen
  /// otherwise. Settled means two captures 100 ms apart agree: on a loaded machine a capture can
  /// land mid-frame, with the heading drawn and the lines below it not yet.
  @discardableResult
  func wait(
    _ what: String, sourceLocation: SourceLocation = #_sourceLocation, until condition: ([String]) -> Bool
  ) throws -> [String] {
    var last: [String] = []
    var matched: [String]? = nil
    for _ in 0..<200 {
      last = try screen()
      if condition(last) {
        if matched == last { return last }
        matched = last
      } else {
        matched = nil
      }
      usleep(100_000)
    }
    Issue.record(
      "timed out waiting for \(what); screen:\n\(last.joined(separator: "\n"))", sourceLocation: sourceLocation)
    return last
  }

  func resize(width: Int, height: Int) throws {
    try run(["resize-window", "-t", session, "-x", "\(width)", "-y", "\(height)"])
  }
}

struct TmuxMissing: Error, CustomStringConvertible {
  var description: String {
    "tmux is not installed: the interactive report's tests need it (apt-get install tmux; .ci/run installs it)"
  }
}

struct TmuxFailed: Error, CustomStringConvertible {
  var arguments: [String]
  var output: String
  var description: String { "tmux \(arguments.joined(separator: " ")) failed: \(output)" }
}

@Suite(.serialized) struct InteractiveTmuxTests {
  /// A database with the demo's October 2026 in it (the shipped sample, imported for real).
  func demoDatabase(_ cli: CLI) throws {
    try? FileManager.default.removeItem(atPath: cli.db)
    let result = try cli.run(["demo", "--keep", cli.db, "--width", "80"], useDatabase: false)
    #expect(result.code == 0, "\(result.stderr)")
  }

  /// The command line that starts the screen, pinned to the demo's month and day.
  func browse(_ cli: CLI, _ subcommand: String = "browse", _ extra: String = "") -> String {
    "\(CLI.binary.path) \(subcommand) --db \(cli.db) --month 2026-10 --today 2026-10-20 --no-animation \(extra)"
  }

  /// Starts the screen from the shell after recording the terminal settings; returns the pane.
  func start(_ cli: CLI, width: Int, height: Int, command: String) throws -> TmuxScreen {
    let tmux = try TmuxScreen(directory: cli.directory, width: width, height: height)
    var started = false
    defer { if !started { tmux.stop() } }
    try tmux.wait("the shell prompt") { $0.contains { $0.hasPrefix("$") } }
    try tmux.type("stty -g > before.stty; echo shell-marker")
    try tmux.wait("the marker") { $0.contains("shell-marker") }
    try tmux.type("echo $$ > shell.pid; " + command + "; echo rc=$?; stty -g > after.stty")
    started = true
    return tmux
  }

  /// After the screen ends: the shell is back with what it showed before, the exit code, and
  /// the same terminal settings as before the screen (echo, line editing, signals).
  /// `marker`: whether the shell's earlier output must be on screen again (tmux crops the saved
  /// screen when the window shrank meanwhile).
  func expectShellRestored(_ tmux: TmuxScreen, _ cli: CLI, code: Int32, marker: Bool = true) throws {
    let screen = try tmux.wait("the shell after the screen") { $0.contains { $0.hasPrefix("rc=") } }
    if marker { #expect(screen.contains("shell-marker"), "the alternate screen gave the shell's screen back") }
    #expect(screen.contains("rc=\(code)"), "\(screen)")
    #expect(!screen.contains { $0.contains("▶ Expenses") || $0.contains("? keys") }, "nothing of the screen is left")
    // The shell makes the file before `stty` writes its one line: wait for the whole line (a
    // loaded machine can take longer than any fixed pause between the two).
    try tmux.wait("stty written") { _ in
      (try? String(contentsOfFile: cli.directory.path + "/after.stty", encoding: .utf8))?.hasSuffix("\n") == true
    }
    let before = try String(contentsOfFile: cli.directory.path + "/before.stty", encoding: .utf8)
    let after = try String(contentsOfFile: cli.directory.path + "/after.stty", encoding: .utf8)
    #expect(!before.isEmpty && before == after, "terminal settings restored")
  }

  /// The section states a printed report uses now (what the screen saved), from its JSON.
  func savedStates(_ cli: CLI) throws -> [String: Bool] {
    let json = try cli.json(["report", "--format", "json", "--month", "2026-10", "--today", "2026-10-20"])
    let sections = (json as? [String: Any])?["sections"] as? [[String: Any]] ?? []
    var states: [String: Bool] = [:]
    for section in sections {
      if let id = section["id"] as? String, let expanded = section["expanded"] as? Bool { states[id] = expanded }
    }
    return states
  }

  func widest(_ lines: [String]) -> Int { lines.map(\.unicodeScalars.count).max() ?? 0 }

  @Test func compactScreenFoldsExpandsScrollsResizesAndSaves() throws {
    let cli = try CLI()
    try demoDatabase(cli)
    let tmux = try start(cli, width: 50, height: 20, command: browse(cli))
    defer { tmux.stop() }

    // Compact: the summary, then chevrons on every collapsible section header.
    var screen = try tmux.wait("the report") { $0.contains { $0.hasPrefix("▼ Category Performance (10 · 2 over)") } }
    #expect(screen[0].hasPrefix("October 2026 budget"))
    #expect(screen.last { !$0.isEmpty }?.hasPrefix("? keys · q quit") == true)

    // Down past Recurring to the Expenses header, open it: it scrolls to the top
    // (expand-and-scroll).
    try tmux.press("j", "j", "Enter")
    screen = try tmux.wait("expenses at the top") { $0.first == "▼ Expenses (50)" }
    #expect(screen[3].hasPrefix("▸ Oct 20  Thai \"Basil\""), "\(screen)")

    // A row expands in place with its details.
    try tmux.press("j", "Enter")
    screen = try tmux.wait("the row's details") { $0.contains("    Date: 2026-10-20") }
    #expect(screen[3].hasPrefix("▾ Oct 20"))
    #expect(screen.contains("    Thai \"Basil\" House"))
    #expect(screen.contains("    Category: Dining out"))
    #expect(screen.contains { $0.hasPrefix("    Source: demo-bank.csv:") })
    #expect(widest(screen) <= 50)

    // Wider: the same rows in the regular layout (long dates), nothing wider than the pane.
    try tmux.resize(width: 120, height: 20)
    screen = try tmux.wait("the wide layout") { $0.contains { $0.hasPrefix("▾ 2026-10-20  Thai \"Basil\" House") } }
    #expect(screen.contains { $0.contains("Date") && $0.contains("Description") && $0.contains("Amount") })
    #expect(widest(screen) <= 120 && widest(screen) > 50)
    try tmux.press("g")
    screen = try tmux.wait("the static header") { $0.contains { $0.hasPrefix("Category Performance vs Budget") } }
    #expect(screen.contains { $0.contains("3-mo avg") }, "wide adds the trailing average")
    try tmux.resize(width: 50, height: 20)
    try tmux.wait("compact again") { $0.contains { $0.hasPrefix("▼ Category Performance") } }

    try tmux.press("q")
    try expectShellRestored(tmux, cli, code: 0)

    // The fold was saved: the JSON report and the printed one show it.
    #expect(
      try savedStates(cli) == [
        "summary": true, "category-performance": true, "expenses": true, "trends": false, "goals": false,
        "accounts": false, "recurring": false, "tags": false,
      ])
    let printed = try cli.run(["report", "--width", "50", "--month", "2026-10", "--today", "2026-10-20"])
    #expect(printed.stdout.contains("▼ Expenses (50)"))
  }

  /// A user files a row where they read it: `f`, a name completed with Tab, the rule offered
  /// for its payee taken with `y`; `u` takes both back. The CLI's history shows the same change.
  @Test func aRowIsFiledInBrowseAndUndone() throws {
    let cli = try CLI()
    try demoDatabase(cli)
    let before = try cli.run(["list", "--format", "json"]).stdout
    let tmux = try start(cli, width: 50, height: 20, command: browse(cli))
    defer { tmux.stop() }
    try tmux.wait("the report") { $0.contains { $0.hasPrefix("▼ Category Performance") } }
    try tmux.press("j", "j", "Enter", "j")
    try tmux.wait("the first row") { $0.contains { $0.contains("Thai \"Basil\"") } }
    try tmux.press("f", "G", "r", "o", "Tab")
    try tmux.wait("the completed name") { $0.last { !$0.isEmpty }?.hasPrefix("Category: Groceries_") == true }
    try tmux.press("Enter")
    let offer = try tmux.wait("the rule offer") { $0.last { !$0.isEmpty }?.hasPrefix("Also rule 'Thai") == true }
    #expect(offer.allSatisfy { $0.unicodeScalars.count <= 50 })
    try tmux.press("y")
    try tmux.wait("the notice") { $0.last { !$0.isEmpty }?.contains("filed into Groceries") == true }
    let history = try cli.run(["history", "--limit", "1"])
    #expect(history.stdout.contains("file ") && history.stdout.contains("into Groceries + rule"), "\(history.stdout)")
    try tmux.press("u")
    try tmux.wait("the undo's notice") { $0.last { !$0.isEmpty }?.hasPrefix("undid #") == true }
    try tmux.press("q")
    try expectShellRestored(tmux, cli, code: 0)
    #expect(try cli.run(["list", "--format", "json"]).stdout == before, "every row as it was")
    #expect(try cli.run(["rules"]).stdout.contains("Thai") == false, "the rule went with it")
  }

  @Test func wideScreenStaticHeaderFoldsAndRestoresOnSigterm() throws {
    let cli = try CLI()
    try demoDatabase(cli)
    let tmux = try start(cli, width: 120, height: 30, command: browse(cli, "report", "--interactive"))
    defer { tmux.stop() }

    var screen = try tmux.wait("the report") {
      $0.contains { $0.hasPrefix("Category Performance vs Budget (10 · 2 over)") }
    }
    #expect(!screen.contains { $0.hasPrefix("▼ Category") }, "no chevron where the section cannot fold")
    #expect(screen.contains("▶ Expenses (50)"))
    #expect(screen.contains { $0.hasPrefix("▶ Trends") })
    #expect(widest(screen) <= 120)

    // The first item is the static header: Enter says it stays; then Trends opens at the top.
    try tmux.press("Enter")
    try tmux.wait("the notice") { $0.contains { $0.hasPrefix("Category Performance is always shown at this width") } }
    try tmux.press("j", "j", "j", "Enter")
    screen = try tmux.wait("trends at the top") { $0.first?.hasPrefix("▼ Trends") == true }
    try tmux.press("k", "Enter")
    screen = try tmux.wait("expenses at the top") { $0.first == "▼ Expenses (50)" }

    // Narrower: compact, the category section gets its chevron back.
    try tmux.resize(width: 50, height: 30)
    try tmux.press("g")
    screen = try tmux.wait("compact") { $0.contains { $0.hasPrefix("▼ Category Performance (10 · 2 over)") } }
    #expect(widest(screen) <= 50)

    // SIGTERM from outside: the terminal comes back all the same, and the exit says why.
    let shell = try String(contentsOfFile: cli.directory.path + "/shell.pid", encoding: .utf8)
    let child = try childPid(of: Int32(shell.trimmingCharacters(in: .whitespacesAndNewlines))!)
    #expect(kill(child, SIGTERM) == 0)
    try expectShellRestored(tmux, cli, code: 128 + SIGTERM, marker: false)

    // Both unfolds were saved as they happened (nothing was saved on the way out).
    #expect(
      try savedStates(cli) == [
        "summary": true, "category-performance": true, "expenses": true, "trends": true, "goals": false,
        "accounts": false, "recurring": false, "tags": false,
      ])
  }

  @Test func ctrlCAndAHangupRestoreTheTerminalToo() throws {
    let cli = try CLI()
    try demoDatabase(cli)
    let tmux = try start(cli, width: 60, height: 15, command: browse(cli))
    defer { tmux.stop() }
    try tmux.wait("the report") { $0.contains { $0.hasPrefix("? keys · q quit") } }
    try tmux.press("C-c")
    try expectShellRestored(tmux, cli, code: 130)

    try FileManager.default.removeItem(atPath: cli.directory.path + "/after.stty")
    try tmux.type("clear; " + browse(cli) + "; echo rc=$?; stty -g > after.stty")
    try tmux.wait("the report again") { $0.contains { $0.hasPrefix("? keys · q quit") } }
    let shell = try String(contentsOfFile: cli.directory.path + "/shell.pid", encoding: .utf8)
    let child = try childPid(of: Int32(shell.trimmingCharacters(in: .whitespacesAndNewlines))!)
    #expect(kill(child, SIGHUP) == 0)
    try expectShellRestored(tmux, cli, code: 128 + SIGHUP, marker: false)
  }

  @Test func withoutATerminalItIsAUsageError() throws {
    let cli = try CLI()
    for arguments in [["browse"], ["report", "--interactive"]] {
      let result = try cli.run(arguments)
      #expect(result.code == 64)
      #expect(result.stderr.contains("the interactive report needs a terminal"), "\(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
  }

  /// The pid of the one process the shell `parent` is running (read from /proc).
  func childPid(of parent: Int32) throws -> Int32 {
    for _ in 0..<50 {
      let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
      if let first = children.split(separator: " ").first, let pid = Int32(first) { return pid }
      usleep(100_000)
    }
    throw TmuxFailed(arguments: ["(children of \(parent))"], output: "no child process")
  }
}
