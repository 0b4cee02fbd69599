import ArgumentParser
import ExpenseCore
import ExpenseImport
import ExpenseRender
import ExpenseService
import ExpenseStore
import ExpenseStores
import Foundation

/// `expenses demo`: the whole product on shipped sample data, touching nothing of the user's.
///
/// Writes the embedded sample bank export to a scratch directory, imports it through the real
/// import pipeline into a scratch database, sets the sample budgets and prints the report for
/// the latest sample month. "Today" defaults to the last day of the sample, so the demo shows
/// pace and projection and prints the same bytes on every machine.
struct DemoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract: "Import the shipped sample into a scratch database and print its report.",
    discussion: """
      Takes every option of 'report'. Examples:
        expenses demo
        expenses demo --width 40
        expenses demo --expand expenses --format json
      """)

  @OptionGroup var options: ReportOptions

  @Option(help: "Keep the scratch database at this path instead of deleting it (a new file: never an existing one).")
  var keep: String?

  func run() throws {
    if let keep {
      // Never a file of the user's database, even one not there right now (its -wal).
      let known = ExpenseService.protectedFiles(
        ofDatabaseAt: DatabaseOptions.path(given: nil), stores: Stores())
      if let entry = known.entry(for: keep) {
        throw ServiceError.protectedOutput(path: keep, what: entry.what, other: entry.shown)
      }
      try DemoCommand.claimNewFile(keep)
    }
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent(
        "expenses-demo-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let dbPath = keep ?? scratch.appendingPathComponent("demo.sqlite").path
    let service = try ExpenseService.open(path: dbPath, access: .write, stores: Stores())
    let lastDay = try service.loadDemo(scratchFolder: scratch.path)
    try ReportPrinter(service: service.pinning(today: lastDay), options: options).print()
  }

  /// Creates `path` as a new empty file, or fails with exit 73 if anything is there already:
  /// the demo never writes into a database (or any file) that exists. `O_EXCL` makes the check
  /// and the creation one step, so no other process can slip a file in between.
  static func claimNewFile(_ path: String) throws {
    let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    if fd >= 0 {
      close(fd)
      return
    }
    let reason = errno == EEXIST ? "it already exists" : String(cString: strerror(errno))
    throw CLIFailure(
      message: "demo --keep \(TerminalText.sanitize(path)): \(reason); the demo never touches an existing file. "
        + "Give a path that does not exist yet.",
      kind: .cannotCreate)
  }
}
