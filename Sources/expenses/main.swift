import ArgumentParser
import ExpenseRender
import Foundation

// The entry point: lifts a `--db PATH` given before the subcommand (`expenses --db X report`),
// then parses and runs, mapping every error to a message on stderr and a sysexits code.
#if canImport(Glibc)
  import Glibc
#endif

// A reader that goes away (`expenses report | head -1`) becomes EPIPE on the next write, which
// `Console` reports, instead of a kill in the middle of whatever the command was doing.
signal(SIGPIPE, SIG_IGN)
// A file-size limit (`ulimit -f`) would kill the process in the middle of a write with no
// word; ignored, the write fails with EFBIG, which SQLite and the output files report as an
// I/O error naming the file (exit 74), after rolling back.
signal(SIGXFSZ, SIG_IGN)

/// Prints `message` on stderr (best effort: stderr itself may be what failed) and exits.
func fail(_ message: String, code: Int32) -> Never {
  // The last line of defence: whatever a message quotes from a file or the command line, no
  // control character of it reaches the terminal (line breaks of the message itself are kept).
  let safe = message.split(separator: "\n", omittingEmptySubsequences: false)
    .map { TerminalText.sanitize(String($0)) }.joined(separator: "\n")
  fputs("expenses: " + safe + "\n", Console.stderrFile)
  exit(code)
}

/// Ends the process for an output failure: quietly for a closed pipe, else exit 74.
func failOutput(_ failure: Console.Failure, committed: String?) -> Never {
  let stream = failure.descriptor == STDERR_FILENO ? "standard error" : "standard output"
  if failure.isClosedPipe {
    if let committed { fail("\(committed); its summary was not shown: the output was closed", code: 0) }
    exit(0)
  }
  let prefix = committed.map { "\($0), but " } ?? ""
  fail("\(prefix)cannot write to \(stream): \(failure.reason)", code: SysExit.code(for: .io))
}

let arguments = GlobalArguments.negativeBalance(
  GlobalArguments.liftLeadingDatabase(Array(CommandLine.arguments.dropFirst())))
if let negative = GlobalArguments.negativeNumber(in: arguments) {
  let place = negative.after.map { " for \($0)" } ?? ""
  fail(
    "\(negative.value): a negative number is not allowed here\(place); amounts, widths and counts are 0 or more "
      + "(money in is written with '+', e.g. +25)",
    code: SysExit.code(for: .usage))
}
do {
  var command = try ExpensesCommand.parseAsRoot(arguments)
  try command.run()
  try Console.flush()
} catch let error as Console.Failure {
  failOutput(error, committed: nil)
} catch let error as CommittedOutputFailure {
  failOutput(error.failure, committed: error.committed)
} catch {
  do { try Console.flush() } catch { failOutput(error, committed: nil) }
  if let failure = CLIFailure(error) { fail(failure.message, code: failure.code) }
  // `--help`, `help`, `--version` and ArgumentParser's usage errors. It wraps help at the width
  // but keeps a path, a list or a long flag whole past it, and traps below its 26-cell indent
  // (COLUMNS=20). So it lays the text out at 60 columns at the least, and help is then fitted
  // like every other output: nothing wider than the terminal.
  let width = TerminalEnvironment().width(option: nil)
  setenv("COLUMNS", String(max(width, 60)), 1)
  let code = ExpensesCommand.exitCode(for: error)
  let message = ExpensesCommand.fullMessage(for: error, columns: max(width, 60))
  if !message.isEmpty {
    if code == .success {
      do {
        // The man page's JSON dump goes out as it is.
        let dump = arguments.contains("--experimental-dump-help")
        try Console.out(dump ? message + "\n" : FittedText.fit(message, width: width))
        try Console.flush()
      } catch { failOutput(error, committed: nil) }
    } else {
      // A usage error's words as ArgumentParser prints them (the catalogue pins them).
      try? Console.err(message + "\n")
    }
  }
  exit(code.rawValue)
}
