import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService

/// `expenses config`: database-wide settings.
struct ConfigCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "config",
    abstract: "Show or change database settings.",
    subcommands: [Show.self, CurrencySetting.self],
    defaultSubcommand: Show.self)

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the settings.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    func run() throws {
      let settings = try database.reading().settings()
      let profiles = settings.profiles
      let lines = [
        "database: \(settings.database ?? ExpenseService.shown(path: database.resolvedPath))",
        "currency: \(settings.currency.code)",
        "accordion: \(settings.accordion ? "on" : "off")",
        "import profiles: \(profiles.isEmpty ? "none" : profiles.joined(separator: ", "))",
      ]
      // Sanitized and wrapped: a path or a profile name from the command line reaches the
      // terminal only neutralised, and whole.
      try Console.out(FittedText.fit(lines.joined(separator: "\n"), width: layout.resolved))
    }
  }

  struct CurrencySetting: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "currency",
      abstract: "Set the default currency (for hand-added rows and files without a currency column).",
      discussion: "Example: expenses config currency EUR")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "ISO 4217 code, e.g. EUR.") var code: String
    func validate() throws {
      guard Currency(code: code) != nil else { throw ValidationError(CoreError.unknownCurrency(code).description) }
    }
    func run() throws {
      try database.writing().setDefaultCurrency(code)
      print("Default currency: \(code.uppercased())")
    }
  }
}
