import ArgumentParser
import Foundation

// The entry point: lifts a `--db PATH` given before the subcommand (`expenses --db X report`),
// then parses and runs, mapping every error to a message on stderr and a sysexits code.
#if canImport(Glibc)
  import Glibc
#endif

let arguments = GlobalArguments.liftLeadingDatabase(Array(CommandLine.arguments.dropFirst()))
do {
  var command = try ExpensesCommand.parseAsRoot(arguments)
  try command.run()
  fflush(nil)
} catch {
  fflush(nil)
  if let failure = CLIFailure(error) {
    FileHandle.standardError.write(Data(("expenses: " + failure.message + "\n").utf8))
    exit(failure.code)
  }
  ExpensesCommand.exit(withError: error)
}
