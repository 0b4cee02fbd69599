/// Handles the one option accepted before the subcommand: `expenses --db PATH report`.
///
/// ArgumentParser gives options to the command that declares them; a root-level `--db` would be
/// invisible to subcommands. So the leading `--db` is lifted out here and read by
/// `DatabaseOptions` as if it had been given after the subcommand.
enum GlobalArguments {
  nonisolated(unsafe) static var leadingDatabase: String?

  static func liftLeadingDatabase(_ arguments: [String]) -> [String] {
    var rest = arguments[...]
    var lifted: [String] = []
    while let first = rest.first, first.hasPrefix("-") {
      if first == "--db", rest.count >= 2 {
        leadingDatabase = rest[rest.startIndex + 1]
        rest = rest.dropFirst(2)
      } else if first.hasPrefix("--db=") {
        leadingDatabase = String(first.dropFirst(5))
        rest = rest.dropFirst()
      } else {
        lifted.append(first)  // --help, --version and the like stay where they are
        rest = rest.dropFirst()
      }
    }
    return lifted + rest
  }
}
