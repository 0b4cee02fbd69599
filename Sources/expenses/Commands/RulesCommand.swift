import ArgumentParser
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// `expenses rules add|list|remove|apply`: categorization rules.
struct RulesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rules",
    abstract: "Categorize rows by what their description (or account) contains.",
    discussion: """
      A pattern matches case-insensitively anywhere in the text; '*' matches any run of characters. Rules are tried in the order they were added; the first match wins. Rules categorize rows at import when the file has no category column; 'rules apply' re-runs them over stored rows.
      """,
    subcommands: [Add.self, List.self, Remove.self, Apply.self],
    defaultSubcommand: List.self)

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Add a rule.",
      discussion: """
        Examples:
          expenses rules add "whole foods" Groceries
          expenses rules add "amzn*mktp" Shopping
          expenses rules add "Visa" Credit --field account
          expenses rules add "lisbon" Travel --tag trip-lisbon

        With --tag, the tag also takes every row the rule matches, stored ones and those imported later ('tag remove' takes one out).
        """)
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Text to look for (case-insensitive, '*' as wildcard).") var pattern: String
    @Argument(help: "Category to give matching rows.") var category: String
    @Option(help: "Field to match: description or account.") var field: String = "description"
    @Option(help: "A tag the rule's matches take too, e.g. trip-lisbon.") var tag: String?
    @OptionGroup var layout: WidthOptions

    func validate() throws {
      guard CategoryRule.Field(rawValue: field) != nil else {
        throw ValidationError("--field must be 'description' or 'account'")
      }
      if pattern.replacingOccurrences(of: "*", with: "").trimmingCharacters(in: .whitespaces).isEmpty {
        throw ValidationError("the pattern is empty; it would match everything")
      }
    }

    func run() throws {
      let service = try database.writing()
      try CategoryHint.warn(service, category: category, action: "Adding the rule for")
      let rule = try service.addRule(
        pattern: pattern, category: category, field: CategoryRule.Field(rawValue: field) ?? .description, tag: tag)
      var lines = [
        "Rule \(rule.id): \(field) contains '\(TerminalText.sanitize(pattern))' → \(TerminalText.sanitize(category))"
          + (tag.map { ", tagged \(TerminalText.sanitize($0.lowercased()))" } ?? "")
      ]
      // Stored rows are not re-sorted by adding a rule: say how many would be, and how.
      let advice = try service.ruleAdvice(for: rule)
      if advice.wouldChange > 0 {
        let rows = advice.wouldChange == 1 ? "row" : "rows"
        lines.append("It would re-categorize \(advice.wouldChange) stored \(rows): expenses rules apply")
      }
      if advice.looksLikeIncome {
        let name = TerminalText.sanitize(rule.category)
        let quoted = name.contains(" ") ? "\"\(name)\"" : name
        lines.append(
          "\(name) looks like income (\(advice.moneyIn) of \(advice.matching) matching rows are money in): "
            + "expenses categories set-kind \(quoted) income")
      }
      try Console.out(FittedText.fit(lines.joined(separator: "\n"), width: layout.resolved))
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List rules in the order they are tried.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text

    func run() throws {
      let service = try database.reading()
      let rules = try service.rules()
      if format == .json {
        print(try SafeJSON.text(rules))
        return
      }
      if rules.isEmpty {
        return try Console.out(
          FittedText.fit("No rules yet. Add one: expenses rules add PATTERN CATEGORY", width: layout.resolved))
      }
      // A tags column only when a rule tags: a list without tags reads as it always did.
      let tags = try service.ruleTags()
      let table =
        tags.isEmpty
        ? ColumnTable(
          header: ["id", "field", "contains", "category"],
          rows: rules.map { [String($0.id), $0.field.rawValue, $0.pattern, $0.category] })
        : ColumnTable(
          header: ["id", "field", "contains", "category", "tags"],
          rows: rules.map {
            [String($0.id), $0.field.rawValue, $0.pattern, $0.category, (tags[$0.id] ?? []).joined(separator: " ")]
          })
      try Console.out(table.render(width: layout.resolved))
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a rule by id.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Rule id (see 'rules list').") var id: Int64

    func run() throws {
      try database.writing().removeRule(id: id)
      print("Removed rule \(id)")
    }
  }

  struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "apply",
      abstract: "Re-categorize stored expenses with the rules.",
      discussion: """
        Only rows whose category came from a rule, or that have none, are re-sorted: a category from the bank's file or set by hand (add/edit --category) is never changed.

        Examples:
          expenses rules apply --dry-run
          expenses rules apply
        """)
    @OptionGroup var database: DatabaseOptions
    @Flag(help: "Print how many rows would change, per category; write nothing.") var dryRun = false

    func run() throws {
      let result = try (dryRun ? database.reading() : database.writing()).applyRules(dryRun: dryRun)
      let rows = "expense\(result.changed == 1 ? "" : "s")"
      try Console.line(
        dryRun ? "Would re-categorize \(result.changed) \(rows)" : "Re-categorized \(result.changed) \(rows)")
      for (category, count) in result.byCategory.sorted(by: { $0.key < $1.key }) {
        try Console.line("  \(TerminalText.sanitize(category)): \(count)")
      }
    }
  }
}
