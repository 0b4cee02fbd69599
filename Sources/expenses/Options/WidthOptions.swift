import ArgumentParser

/// `--width N` for the listings (`imports`, `token list`, `categories`, `config`, `check`,
/// `budget list`, `rules list`, `sections`): the width their text fits, as the report's does.
struct WidthOptions: ParsableArguments {
  @Option(help: "Width to fit text output to (default: $COLUMNS, the terminal, else 80); at least 20.")
  var width: Int?

  func validate() throws {
    if let width, width < 20 { throw ValidationError("--width must be at least 20 columns (got \(width))") }
  }

  /// The width in force: `--width`, else `$COLUMNS`, else the terminal, else 80.
  var resolved: Int { TerminalEnvironment().width(option: width) }
}
