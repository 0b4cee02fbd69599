import ArgumentParser

/// The root command: a thin dispatcher, one subcommand per file under Commands/.
struct ExpensesCommand: ParsableCommand {
  static let version = "0.1.0"

  static let configuration = CommandConfiguration(
    commandName: "expenses",
    abstract: "Track expenses from your bank's CSV files against monthly budgets.",
    discussion: """
      Data lives in one SQLite file: --db PATH (before or after the subcommand), else $EXPENSES_DB, else $XDG_DATA_HOME/expenses/expenses.sqlite (~/.local/share/... without it). Try 'expenses demo' for a report on sample data.
      """,
    version: version,
    subcommands: [
      DemoCommand.self, ImportCommand.self, AddCommand.self, ListCommand.self, ReportCommand.self,
      BudgetCommand.self, GoalCommand.self, CategoriesCommand.self, RulesCommand.self, SectionsCommand.self,
      ConfigCommand.self,
      CheckCommand.self, BackupCommand.self, RestoreCommand.self, CopyCommand.self,
      DeleteCommand.self, EditCommand.self, ImportsCommand.self, TransfersCommand.self, AccountsCommand.self,
      ReconcileCommand.self, HistoryCommand.self, UndoCommand.self, RecurringCommand.self, TagCommand.self,
      ExportCommand.self,
      BrowseCommand.self,
      TokenCommand.self, ServeCommand.self, LedgerCommand.self, UserCommand.self,
    ]
  )
}
