import ExpenseCore
import ExpenseService
import Foundation
import Testing

/// Every message and kind of `ServiceError`, pinned: the kind picks the CLI's exit code and
/// the HTTP API's status. `name(of:)` is exhaustive, so a new case must be pinned here.
@Suite struct ServiceErrorMessageTests {
  static let pinned: [(ServiceError, String, ServiceError.Kind)] = [
    (
      .protectedOutput(path: "r.csv", what: "the database", other: "db.sqlite"),
      "refusing to write r.csv: it is the database (db.sqlite); choose another path", .cannotCreate
    ),
    (.outputIsDirectory(path: "out"), "cannot write out: it is a directory", .cannotCreate),
    (
      .outputIsSpecial(path: "/dev/sda", what: "a block device"),
      "cannot write /dev/sda: it is a block device; nothing was replaced. Write to a regular file, a FIFO or a character device such as /dev/null",
      .cannotCreate
    ),
    (
      .outputExists(path: "r.csv"), "r.csv already exists; choose another path or add --force to replace it",
      .cannotCreate
    ),
    (
      .cannotCreate(path: "r.csv", reason: "Permission denied"), "cannot create r.csv: Permission denied", .cannotCreate
    ),
    (
      .cannotWrite(path: "r.csv", reason: "No space left on device"), "cannot write r.csv: No space left on device", .io
    ),
    (
      .everyRowExcluded(file: "b.csv", count: 2, reasons: ["line 2: status pending", "line 3: status pending"]),
      "b.csv: every row was excluded (2), nothing to import; line 2: status pending; line 3: status pending\n  hint: check the status or date column, or use --skip-when to choose what is excluded",
      .badData
    ),
    (
      .totalTooLarge(location: "b.csv:9", detail: "too much"),
      "b.csv:9: too much\n  hint: an amount this large is almost always a misread column or decimal mark; check the file",
      .badData
    ),
    (.widthTooSmall(12), "the width is 12 columns; the report needs at least 20 (set --width)", .usage),
    (.noSuchFile(path: "b.sqlite"), "b.sqlite: no such file", .noInput),
    (
      .cannotRead(path: "b.sqlite", reason: "Permission denied"), "cannot read b.sqlite: Permission denied",
      .noInput
    ),
    (.cannotCopy(path: "b.sqlite", reason: "Input/output error"), "cannot copy b.sqlite: Input/output error", .io),
    (
      .backupRefused("b.sqlite is not an expenses database", kind: .badData), "b.sqlite is not an expenses database",
      .badData
    ),
    (
      .previousRestoreExists(path: "db.before-restore"),
      "db.before-restore already exists (the database before an earlier restore); move it away, or add --force to replace it",
      .cannotCreate
    ),
    (
      .previousRestoreNotRegular(path: "db.before-restore"),
      "db.before-restore is not a regular file; it is never replaced. Move it away and restore again", .cannotCreate
    ),
    (
      .invalidStoreURL(option: "--to"),
      "--to is not a PostgreSQL URL: write postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE or postgres://USER@/DATABASE?host=SOCKET_DIR (with &ledger=NAME to name a ledger)",
      .usage
    ),
    (
      .copyTargetExists(path: "b.sqlite", what: "a regular file"),
      "b.sqlite already exists (a regular file); a copy writes a new database file and never replaces anything. Nothing was copied\n  hint: name a path that does not exist yet",
      .cannotCreate
    ),
    (.ledgerOption(reason: "why"), "--ledger: why", .usage),
    (
      .ledgerTwice(url: "home", flag: "family"),
      "--ledger family names another ledger than the URL's ledger=home; give one of them", .usage
    ),
    (
      .ledgerFileExists(path: "e.ledgers/family.sqlite", what: "a file"),
      "e.ledgers/family.sqlite already exists (a file); a new ledger never takes over a file. Nothing was created\n  hint: move it away, or choose another ledger name",
      .cannotCreate
    ),
    (
      .ledgerNeeded(user: "kim", ledgers: ["a", "b"]),
      "user 'kim' is in several ledgers (a, b); say which with --ledger NAME", .usage
    ),
    (
      .ledgerNeeded(user: "kim", ledgers: []),
      "user 'kim' is in no ledger\n  hint: 'expenses user add kim --ledger LEDGER --role read|write|owner' first",
      .usage
    ),
    (
      .unknownCategory(name: "Dinning", suggestion: "Dining"),
      "no category 'Dinning'; did you mean 'Dining'?\n  hint: 'expenses categories' lists them", .notFound
    ),
    (
      .categoryNotCreated(name: "Salry", kind: "income", suggestion: "Salary"),
      "no category 'Salry' (did you mean 'Salary'?); nothing was changed\n  hint: add --create to make 'Salry' a new income category",
      .notFound
    ),
    (
      .nothingToAverage(category: "Travel", months: 3),
      "'Travel' spent nothing in the last 3 complete months to take a budget from; nothing was changed\n  hint: give an amount ('expenses budget set Travel 400'), or average more months with --from-average 6",
      .notFound
    ),
    (
      .moveAmount(0), "a budget move takes more than 0 from one category to another; nothing was moved",
      .invalidValue
    ),
    (
      .moveBetweenSame("Dining"),
      "a budget move needs two different categories ('Dining' twice); nothing was moved\n  hint: expenses budget move 50 \"Dining out\" Groceries",
      .invalidValue
    ),
    (.moveNotFound(7), "no budget move #7\n  hint: 'expenses budget moves' lists them", .notFound),
    (
      .moveMoreThanBudget(
        category: "Dining", month: Month(year: 2026, month: 11) ?? .supportedRange.lowerBound,
        available: Money(minor: 1_000, currency: .usd)),
      "'Dining' has $10.00 of budget in November 2026 to move; nothing was moved\n  hint: move at most that, or raise its budget first ('expenses budget set Dining AMOUNT')",
      .conflict
    ),
    (.goalValue("a goal needs a name"), "a goal needs a name; no goal was added", .invalidValue),
    (.goalNotFound(3), "no goal #3\n  hint: 'expenses goal list' lists them", .notFound),
    (
      .recurringNotFound(4),
      "no recurring series #4 is found in the rows now\n  hint: 'expenses recurring --all' lists them", .notFound
    ),
    (
      .tagName("Trip Lisbon"),
      "'Trip Lisbon' cannot be a tag: a tag is letters a-z, digits and - _ . /, a letter or a digit first, at most 64\n  hint: expenses tag add trip-lisbon 42",
      .invalidValue
    ),
    (.tagNotFound("trip"), "no tag 'trip'\n  hint: 'expenses tag list' lists them", .notFound),
    (
      .tagBudget("a tag's budget must be more than 0"),
      "a tag's budget must be more than 0; the tag's budget was not set\n  hint: expenses tag budget trip-lisbon 1500 --from 2026-08-01 --to 2026-08-31",
      .invalidValue
    ),
    (
      .periodBudgetForMonth(category: "Travel", period: .year, month: Month(year: 2026, month: 12)!),
      "'Travel': a yearly budget is one amount for the whole year, so it has no amount for December 2026 alone; "
        + "nothing was changed\n  hint: leave out --month to set the year's amount, or budget it by the month first "
        + "('expenses budget set Travel AMOUNT --period month')", .invalidValue
    ),
    (
      .periodBudgetHasMonths(category: "Travel", period: .quarter, months: [Month(year: 2026, month: 12)!]),
      "'Travel' has budgets for single months (2026-12); a quarterly budget is one amount for the whole quarter "
        + "and would leave them unused; nothing was changed\n  hint: remove them first "
        + "('expenses budget remove Travel --month 2026-12')", .conflict
    ),
    (
      .rolloverNeedsMonthlyBudget(category: "Travel", period: .year),
      "'Travel': rollover carries a month's budget into the next, and a yearly budget already lasts its whole "
        + "year; nothing was changed\n  hint: add --rollover off, or --period month to budget it by the month",
      .invalidValue
    ),
    (
      .changeNotFound(9), "no change #9 in the history\n  hint: 'expenses history' lists the changes it keeps",
      .notFound
    ),
    (
      .nothingToUndo,
      "there is no change left to undo\n  hint: 'expenses history' lists the changes and what undid them", .notFound
    ),
    (
      .alreadyUndone(4, by: 6),
      "change #4 was undone already, by change #6; nothing was changed\n  hint: 'expenses undo 6' makes it again",
      .conflict
    ),
    (
      .undoConflict(4, what: ["expense 12"]),
      "change #4 cannot be undone: what it changed was changed since (expense 12); nothing was changed\n  hint: "
        + "undo the later changes first ('expenses history' lists them), or change it back by hand", .conflict
    ),
    (
      .cannotUndo(4, rows: 60_000),
      "change #4 touched 60000 rows, more than the history keeps for one change (50000), so it cannot be undone; "
        + "nothing was changed\n  hint: an import can still be removed with 'expenses imports remove ID'", .conflict
    ),
  ]

  static func name(of error: ServiceError) -> String {
    switch error {
    case .protectedOutput: return "protectedOutput"
    case .outputIsDirectory: return "outputIsDirectory"
    case .outputIsSpecial: return "outputIsSpecial"
    case .outputExists: return "outputExists"
    case .cannotCreate: return "cannotCreate"
    case .cannotWrite: return "cannotWrite"
    case .everyRowExcluded: return "everyRowExcluded"
    case .totalTooLarge: return "totalTooLarge"
    case .widthTooSmall: return "widthTooSmall"
    case .noSuchFile: return "noSuchFile"
    case .cannotRead: return "cannotRead"
    case .cannotCopy: return "cannotCopy"
    case .backupRefused: return "backupRefused"
    case .previousRestoreExists: return "previousRestoreExists"
    case .previousRestoreNotRegular: return "previousRestoreNotRegular"
    case .invalidStoreURL: return "invalidStoreURL"
    case .copyTargetExists: return "copyTargetExists"
    case .ledgerOption: return "ledgerOption"
    case .ledgerTwice: return "ledgerTwice"
    case .ledgerFileExists: return "ledgerFileExists"
    case .ledgerNeeded: return "ledgerNeeded"
    case .unknownCategory: return "unknownCategory"
    case .categoryNotCreated: return "categoryNotCreated"
    case .nothingToAverage: return "nothingToAverage"
    case .moveAmount: return "moveAmount"
    case .moveBetweenSame: return "moveBetweenSame"
    case .moveNotFound: return "moveNotFound"
    case .moveMoreThanBudget: return "moveMoreThanBudget"
    case .goalValue: return "goalValue"
    case .goalNotFound: return "goalNotFound"
    case .recurringNotFound: return "recurringNotFound"
    case .tagName: return "tagName"
    case .tagNotFound: return "tagNotFound"
    case .tagBudget: return "tagBudget"
    case .periodBudgetForMonth: return "periodBudgetForMonth"
    case .periodBudgetHasMonths: return "periodBudgetHasMonths"
    case .rolloverNeedsMonthlyBudget: return "rolloverNeedsMonthlyBudget"
    case .changeNotFound: return "changeNotFound"
    case .nothingToUndo: return "nothingToUndo"
    case .alreadyUndone: return "alreadyUndone"
    case .undoConflict: return "undoConflict"
    case .cannotUndo: return "cannotUndo"
    }
  }

  @Test func everyCaseHasItsMessageAndKind() {
    for (error, message, kind) in Self.pinned {
      #expect(error.description == message)
      #expect(error.localizedDescription == message, "LocalizedError gives the same text")
      #expect(error.kind == kind, "\(Self.name(of: error))")
    }
    #expect(Set(Self.pinned.map { Self.name(of: $0.0) }).count == 42, "every case is pinned")
  }
}
