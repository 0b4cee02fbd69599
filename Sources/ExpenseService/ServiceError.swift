import ExpenseCore
import Foundation

/// Failures of the service layer itself (the modules below have their own error enums), each
/// phrased for a person and classed by `kind`, which every front end maps to its own codes:
/// the CLI to sysexits, the HTTP API to statuses.
public enum ServiceError: ClassifiedError, Equatable, LocalizedError, CustomStringConvertible {
  /// What kind of failure, independent of the front end (the classification every module's
  /// errors share; the name is kept for the callers that spell it `ServiceError.Kind`).
  public typealias Kind = ErrorKind

  /// `path` is another file this command must not write (the database, the input).
  case protectedOutput(path: String, what: String, other: String)
  /// `path` is a folder.
  case outputIsDirectory(path: String)
  /// `path` is something no output replaces or writes into (`what`: a block device, a socket,
  /// a symbolic link to a missing file).
  case outputIsSpecial(path: String, what: String)
  /// `path` exists and replacing it was not asked for.
  case outputExists(path: String)
  /// `path` could not be created (`reason` is the system's).
  case cannotCreate(path: String, reason: String)
  /// Writing `path` failed part way (`reason` is the system's).
  case cannotWrite(path: String, reason: String)
  /// Every row of a file was excluded: exit 0 with nothing imported would read as success.
  case everyRowExcluded(file: String, count: Int, reasons: [String])
  /// A monthly sum would pass the store's limit (`location` is file or file:line).
  case totalTooLarge(location: String, detail: String)
  /// The report cannot fit this width.
  case widthTooSmall(Int)
  /// An input file (a backup to restore) does not exist.
  case noSuchFile(path: String)
  /// An input file cannot be opened (`reason` is the system's).
  case cannotRead(path: String, reason: String)
  /// Copying an input file failed part way.
  case cannotCopy(path: String, reason: String)
  /// A backup was refused (`message` names the user's file; `kind` says why).
  case backupRefused(String, kind: Kind)
  /// `DATABASE.before-restore` is there from an earlier restore and replacing it was not asked.
  case previousRestoreExists(path: String)
  /// `DATABASE.before-restore` is not a regular file: it is never replaced.
  case previousRestoreNotRegular(path: String)
  /// The `option`'s value (`--from`, `--to`) looks like a PostgreSQL URL but is not one (the
  /// value is not repeated: it may hold a password).
  case invalidStoreURL(option: String)
  /// A copy's target file exists (`what` it is): a copy makes a new file, never replaces one.
  case copyTargetExists(path: String, what: String)
  /// `copy --ledger` cannot apply to these stores (`reason` says why).
  case ledgerOption(reason: String)
  /// `--ledger` names one ledger and the URL's `ledger=` another.
  case ledgerTwice(url: String, flag: String)
  /// A new ledger's file exists already (`what` it is): a ledger never takes over a file.
  case ledgerFileExists(path: String, what: String)
  /// A token for a user needs a ledger, and the user has roles in several (or none).
  case ledgerNeeded(user: String, ledgers: [String])
  /// A filter named a category that does not exist in any spelling (`list --category`):
  /// an empty listing would hide the typo. `suggestion` is a known category close to it.
  case unknownCategory(name: String, suggestion: String?)
  /// `categories set-kind` named a category that does not exist and was not asked to make it
  /// (`--create`): a typo would otherwise start a second category silently.
  case categoryNotCreated(name: String, kind: String, suggestion: String?)
  /// `budget set --from-average N` found no spending of the category in the last N complete
  /// months (or no complete month of history yet): there is nothing to take a budget from.
  case nothingToAverage(category: String, months: Int)
  /// `budget move` of nothing or less: a move takes an amount from one category to another.
  case moveAmount(Int64)
  /// `budget move` from a category to itself (or a blank name).
  case moveBetweenSame(String)
  /// `budget moves remove` named no move.
  case moveNotFound(Int64)
  /// `budget move` of more than the category has to give that month (its budget in force, and
  /// what carried in under rollover): a budget never goes below zero by a move.
  case moveMoreThanBudget(category: String, month: Month, available: Money)
  /// `goal add` with a value a goal cannot have (no name, nothing to save, a month passed).
  case goalValue(String)
  /// `goal remove` named no goal.
  case goalNotFound(Int64)
  /// `recurring confirm|ignore` named no series found in the rows now.
  case recurringNotFound(Int64)
  /// A tag name `tag add|remove|budget` cannot keep.
  case tagName(String)
  /// `tag remove|budget|delete` or `list --tag` named no tag.
  case tagNotFound(String)
  /// A tag's budget that cannot be: not more than 0, or days that end before they begin.
  case tagBudget(String)
  /// A month's amount (`budget set --month`) of a category budgeted by the quarter or the year,
  /// which is one amount for the whole period.
  case periodBudgetForMonth(category: String, period: BudgetPeriod, month: Month)
  /// `budget set --period quarter|year` of a category with budgets for single months, which a
  /// budget by the period would silently ignore.
  case periodBudgetHasMonths(category: String, period: BudgetPeriod, months: [Month])
  /// Rollover of a quarterly or yearly budget: a carry moves a month's budget into the next.
  case rolloverNeedsMonthlyBudget(category: String, period: BudgetPeriod)
  /// `undo N` or `GET /v1/history/N` names a change the history does not hold (never made, or
  /// older than the history keeps).
  case changeNotFound(Int64)
  /// `undo` with no change left to undo.
  case nothingToUndo
  /// The change was undone already (by change `by`).
  case alreadyUndone(Int64, by: Int64)
  /// What the change changed was changed since (`what`: the rows or things, named); nothing
  /// was changed.
  case undoConflict(Int64, what: [String])
  /// The change keeps no effect to undo (it touched more rows than the history keeps per change).
  case cannotUndo(Int64, rows: Int)

  public var kind: Kind {
    switch self {
    case .protectedOutput, .outputIsDirectory, .outputIsSpecial, .outputExists, .cannotCreate: return .cannotCreate
    case .cannotWrite: return .io
    case .everyRowExcluded, .totalTooLarge: return .badData
    case .widthTooSmall: return .usage
    case .noSuchFile, .cannotRead: return .noInput
    case .cannotCopy: return .io
    case .backupRefused(_, let kind): return kind
    case .previousRestoreExists, .previousRestoreNotRegular: return .cannotCreate
    case .invalidStoreURL, .ledgerOption, .ledgerTwice, .ledgerNeeded: return .usage
    case .ledgerFileExists: return .cannotCreate
    case .copyTargetExists: return .cannotCreate
    case .unknownCategory, .categoryNotCreated, .nothingToAverage, .moveNotFound: return .notFound
    case .moveAmount, .moveBetweenSame: return .invalidValue
    case .moveMoreThanBudget: return .conflict
    case .goalValue: return .invalidValue
    case .goalNotFound, .recurringNotFound, .tagNotFound: return .notFound
    case .tagName, .tagBudget: return .invalidValue
    case .periodBudgetForMonth, .rolloverNeedsMonthlyBudget: return .invalidValue
    case .periodBudgetHasMonths: return .conflict
    case .changeNotFound, .nothingToUndo: return .notFound
    case .alreadyUndone, .undoConflict, .cannotUndo: return .conflict
    }
  }

  public var description: String {
    switch self {
    case .protectedOutput(let path, let what, let other):
      return "refusing to write \(path): it is \(what) (\(other)); choose another path"
    case .outputIsDirectory(let path):
      return "cannot write \(path): it is a directory"
    case .outputIsSpecial(let path, let what):
      return "cannot write \(path): it is \(what); nothing was replaced. Write to a regular file, a FIFO or a "
        + "character device such as /dev/null"
    case .outputExists(let path):
      return "\(path) already exists; choose another path or add --force to replace it"
    case .cannotCreate(let path, let reason):
      return "cannot create \(path): \(reason)"
    case .cannotWrite(let path, let reason):
      return "cannot write \(path): \(reason)"
    case .everyRowExcluded(let file, let count, let reasons):
      return "\(file): every row was excluded (\(count)), nothing to import; \(reasons.joined(separator: "; "))"
        + "\n  hint: check the status or date column, or use --skip-when to choose what is excluded"
    case .totalTooLarge(let location, let detail):
      return "\(location): \(detail)"
        + "\n  hint: an amount this large is almost always a misread column or decimal mark; check the file"
    case .widthTooSmall(let width):
      return "the width is \(width) columns; the report needs at least 20 (set --width)"
    case .noSuchFile(let path):
      return "\(path): no such file"
    case .cannotRead(let path, let reason):
      return "cannot read \(path): \(reason)"
    case .cannotCopy(let path, let reason):
      return "cannot copy \(path): \(reason)"
    case .backupRefused(let message, _):
      return message
    case .previousRestoreExists(let path):
      return
        "\(path) already exists (the database before an earlier restore); move it away, or add --force to replace it"
    case .previousRestoreNotRegular(let path):
      return "\(path) is not a regular file; it is never replaced. Move it away and restore again"
    case .invalidStoreURL(let option):
      return
        "\(option) is not a PostgreSQL URL: write postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE or postgres://USER@/DATABASE?host=SOCKET_DIR (with &ledger=NAME to name a ledger)"
    case .copyTargetExists(let path, let what):
      return
        "\(path) already exists (\(what)); a copy writes a new database file and never replaces anything. Nothing was copied\n  hint: name a path that does not exist yet"
    case .ledgerOption(let reason):
      return "--ledger: \(reason)"
    case .ledgerTwice(let url, let flag):
      return "--ledger \(flag) names another ledger than the URL's ledger=\(url); give one of them"
    case .ledgerFileExists(let path, let what):
      return
        "\(path) already exists (\(what)); a new ledger never takes over a file. Nothing was created\n  hint: move it away, or choose another ledger name"
    case .ledgerNeeded(let user, let ledgers):
      if ledgers.isEmpty {
        return
          "user '\(user)' is in no ledger\n  hint: 'expenses user add \(user) --ledger LEDGER --role read|write|owner' first"
      }
      return
        "user '\(user)' is in several ledgers (\(ledgers.joined(separator: ", "))); say which with --ledger NAME"
    case .unknownCategory(let name, let suggestion):
      let near = suggestion.map { "; did you mean '\($0)'?" } ?? ""
      return "no category '\(name)'\(near)\n  hint: 'expenses categories' lists them"
    case .categoryNotCreated(let name, let kind, let suggestion):
      let near = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
      return
        "no category '\(name)'\(near); nothing was changed\n  hint: add --create to make '\(name)' a new \(kind) category"
    case .moveAmount:
      return "a budget move takes more than 0 from one category to another; nothing was moved"
    case .moveBetweenSame(let name):
      return
        "a budget move needs two different categories ('\(name)' twice); nothing was moved\n  hint: expenses budget move 50 \"Dining out\" Groceries"
    case .moveNotFound(let id):
      return "no budget move #\(id)\n  hint: 'expenses budget moves' lists them"
    case .goalValue(let reason):
      return "\(reason); no goal was added"
    case .goalNotFound(let id):
      return "no goal #\(id)\n  hint: 'expenses goal list' lists them"
    case .tagName(let raw):
      return
        "'\(raw)' cannot be a tag: a tag is letters a-z, digits and - _ . /, a letter or a digit first, at most 64\n  hint: expenses tag add trip-lisbon 42"
    case .tagNotFound(let name):
      return "no tag '\(name)'\n  hint: 'expenses tag list' lists them"
    case .tagBudget(let reason):
      return
        "\(reason); the tag's budget was not set\n  hint: expenses tag budget trip-lisbon 1500 --from 2026-08-01 --to 2026-08-31"
    case .recurringNotFound(let id):
      return "no recurring series #\(id) is found in the rows now\n  hint: 'expenses recurring --all' lists them"
    case .periodBudgetForMonth(let category, let period, let month):
      return
        "'\(category)': a \(period.adjective) budget is one amount for the whole \(period.rawValue), so it has no amount for \(month.longName) alone; nothing was changed\n  hint: leave out --month to set the \(period.rawValue)'s amount, or budget it by the month first ('expenses budget set \(category) AMOUNT --period month')"
    case .periodBudgetHasMonths(let category, let period, let months):
      let listed = months.map(\.description).joined(separator: ", ")
      let first = months.first.map(\.description) ?? "YYYY-MM"
      return
        "'\(category)' has budgets for single months (\(listed)); a \(period.adjective) budget is one amount for the whole \(period.rawValue) and would leave them unused; nothing was changed\n  hint: remove them first ('expenses budget remove \(category) --month \(first)')"
    case .rolloverNeedsMonthlyBudget(let category, let period):
      return
        "'\(category)': rollover carries a month's budget into the next, and a \(period.adjective) budget already lasts its whole \(period.rawValue); nothing was changed\n  hint: add --rollover off, or --period month to budget it by the month"
    case .moveMoreThanBudget(let category, let month, let available):
      return
        "'\(category)' has \(available.formatted) of budget in \(month.longName) to move; nothing was moved\n  hint: move at most that, or raise its budget first ('expenses budget set \(category) AMOUNT')"
    case .changeNotFound(let id):
      return "no change #\(id) in the history\n  hint: 'expenses history' lists the changes it keeps"
    case .nothingToUndo:
      return "there is no change left to undo\n  hint: 'expenses history' lists the changes and what undid them"
    case .alreadyUndone(let id, let by):
      return
        "change #\(id) was undone already, by change #\(by); nothing was changed\n  hint: 'expenses undo \(by)' makes it again"
    case .undoConflict(let id, let what):
      let shown = what.prefix(10).joined(separator: ", ") + (what.count > 10 ? " and \(what.count - 10) more" : "")
      return
        "change #\(id) cannot be undone: what it changed was changed since (\(shown)); nothing was changed\n  hint: undo the later changes first ('expenses history' lists them), or change it back by hand"
    case .cannotUndo(let id, let rows):
      return
        "change #\(id) touched \(rows) rows, more than the history keeps for one change (\(History.changeRowLimit)), so it cannot be undone; nothing was changed\n  hint: an import can still be removed with 'expenses imports remove ID'"
    case .nothingToAverage(let category, let months):
      let span = months == 1 ? "the last complete month" : "the last \(months) complete months"
      return
        "'\(category)' spent nothing in \(span) to take a budget from; nothing was changed\n  hint: give an amount ('expenses budget set \(category) 400'), or average more months with --from-average 6"
    }
  }

  public var errorDescription: String? { description }
}
