import ArgumentParser
import Foundation

// The entry point: lifts a `--db PATH` given before the subcommand (`expenses --db X report`),
// then parses and runs, mapping every error to a message on stderr and a sysexits code.
#if canImport(Glibc)
  import Glibc
#endif
setvbuf(stdout, nil, _IOFBF, 1 << 16)
let arguments = GlobalArguments.liftLeadingDatabase(Array(CommandLine.arguments.dropFirst()))
do {
  var command = try ExpensesCommand.parseAsRoot(arguments)
  try command.run()
  fflush(stdout)
} catch {
  fflush(stdout)
  if let failure = CLIFailure(error) {
    FileHandle.standardError.write(Data(("expenses: " + failure.message + "\n").utf8))
    exit(failure.code)
  }
  ExpensesCommand.exit(withError: error)
}
