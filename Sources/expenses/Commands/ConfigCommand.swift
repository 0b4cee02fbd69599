import ArgumentParser
import ExpenseCore

/// `expenses config`: database-wide settings.
struct ConfigCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "config",
    abstract: "Show or change database settings.",
    subcommands: [Show.self, CurrencySetting.self],
    defaultSubcommand: Show.self)

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the settings.")
    @OptionGroup var database: DatabaseOptions
    func run() throws {
      let db = try database.openForReading()
      print("database: \(db.path)")
      print("currency: \(try db.defaultCurrency().code)")
      print("accordion: \(try db.setting("accordion") ?? "off")")
      let profiles = try db.profileNames()
      print("import profiles: \(profiles.isEmpty ? "none" : profiles.joined(separator: ", "))")
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
      let db = try database.open()
      try db.setDefaultCurrency(Currency(code: code)!)
      print("Default currency: \(code.uppercased())")
    }
  }
}
