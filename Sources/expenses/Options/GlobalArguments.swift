/// Handles the options accepted before the subcommand: `expenses --db PATH --ledger NAME report`.
///
/// ArgumentParser gives options to the command that declares them; a root-level `--db` would be
/// invisible to subcommands. So a leading `--db` or `--ledger` is lifted out here and read by
/// `DatabaseOptions` as if it had been given after the subcommand.
enum GlobalArguments {
  nonisolated(unsafe) static var leadingDatabase: String?
  nonisolated(unsafe) static var leadingLedger: String?

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
      } else if first == "--ledger", rest.count >= 2 {
        leadingLedger = rest[rest.startIndex + 1]
        rest = rest.dropFirst(2)
      } else if first.hasPrefix("--ledger=") {
        leadingLedger = String(first.dropFirst(9))
        rest = rest.dropFirst()
      } else {
        lifted.append(first)  // --help, --version and the like stay where they are
        rest = rest.dropFirst()
      }
    }
    return lifted + rest
  }

  /// `reconcile`'s balance may be negative (a card, an overdraft): `reconcile 8812 -412.90
  /// --as-of D` becomes `reconcile 8812 --as-of D -- -412.90` (the balance is its last
  /// positional argument, so it keeps its place), which the argument parser reads as a value
  /// instead of a short option. Any other command's arguments are returned as they are.
  static func negativeBalance(_ arguments: [String]) -> [String] {
    guard arguments.first == "reconcile", !arguments.contains("--"),
      let index = arguments.indices.first(where: { isNegativeNumber(arguments[$0]) })
    else { return arguments }
    var moved = arguments
    let value = moved.remove(at: index)
    return moved + ["--", value]
  }

  /// `-50`, `-12.50`, `-1,5`.
  static func isNegativeNumber(_ argument: String) -> Bool {
    let rest = argument.dropFirst()
    guard argument.hasPrefix("-"), let first = rest.first, first.isASCII, first.isNumber else { return false }
    return rest.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
  }

  /// The first argument that is a negative number (`-50`, `-12.50`, `-1,5`), before any `--`.
  ///
  /// Why: no other command takes one (amounts are positive with `+` for money in; widths,
  /// limits and days are counts), and the argument parser reads `-50` as a short option and
  /// says "Missing expected argument", which sends the user looking for the wrong mistake.
  static func negativeNumber(in arguments: [String]) -> (value: String, after: String?)? {
    for (index, argument) in arguments.enumerated() {
      if argument == "--" { return nil }
      guard isNegativeNumber(argument) else { continue }
      let previous = index > 0 ? arguments[index - 1] : nil
      return (argument, previous.flatMap { $0.hasPrefix("--") ? $0 : nil })
    }
    return nil
  }
}
