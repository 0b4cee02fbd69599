import ExpenseCore
import Foundation
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// Every message of the store's errors, pinned: a user reads these and acts on them (and the
/// CLI's exit codes and the HTTP API's statuses are chosen by case, so a new case must show
/// up here: `name(of:)` is an exhaustive switch).
@Suite struct StoreErrorMessageTests {
  static let month = Month(year: 2026, month: 10)!

  static let pinned: [(StoreError, String)] = [
    (
      .newerSchema(path: "db", found: 9, supported: 3),
      "db was written by a newer version of expenses (schema 9, this version reads up to 3); upgrade expenses to open it"
    ),
    (.cannotOpen(path: "db", reason: "Permission denied"), "cannot open database db: Permission denied"),
    (
      .noDatabase(path: "db"),
      "no database at db: nothing has been imported there yet\n  hint: check --db or $EXPENSES_DB, import a file first (expenses import FILE), or try 'expenses demo'"
    ),
    (
      .notADatabase(path: "db"),
      "db is not an expenses database (another program's file, or not SQLite); it was left unchanged. Choose another file with --db"
    ),
    (
      .notSQLite(path: "db", detail: "its first bytes are not SQLite's header"),
      "db is not a SQLite database (its first bytes are not SQLite's header); it was left unchanged. Choose another file with --db"
    ),
    (
      .busy(path: "db"),
      "db is busy: another process is writing to it. Nothing was written; try again when it is done, or wait longer with --wait SECONDS"
    ),
    (
      .noConnection(path: "postgres://app@db1/ledgers"),
      "postgres://app@db1/ledgers has no connection left to give (max_connections, or the role's or database's CONNECTION LIMIT). Nothing was written; try again in a moment\n  hint: raise the limit, or lower the connections its servers hold (expenses serve --pool-size)"
    ),
    (
      .poolExhausted(path: "postgres://app@db1/ledgers", size: 8),
      "all 8 connections of this server's pool to postgres://app@db1/ledgers stayed in use while the request waited. Nothing was written; try again in a moment\n  hint: raise expenses serve --pool-size (within the server's max_connections)"
    ),
    (
      .corrupt(path: "db", detail: "page 3"),
      "db is damaged (page 3); the command stopped and wrote nothing more.\n  hint: run 'expenses check' to see what is wrong, and 'expenses restore BACKUP' to go back to a backup"
    ),
    (
      .diskFull(path: "db"),
      "cannot write db: the disk is full. Nothing of this command was written and the earlier data is intact; free some space and try again"
    ),
    (
      .readOnly(path: "db", action: "import"),
      "db is read-only: cannot import; reports and lists still work. Nothing was written"
    ),
    (.io(path: "db", detail: "EIO"), "db: I/O error: EIO"),
    (
      .unreadable(path: "db", detail: "a REAL amount"),
      "db holds a value this version cannot read: a REAL amount\n  hint: run 'expenses check' to find the damaged rows"
    ),
    (.totalTooLarge(path: "db", detail: "too much"), "db: too much"),
    (.budgetNotFound(category: "Food", month: month), "no budget for 'Food' for 2026-10; see 'expenses budget list'"),
    (.budgetNotFound(category: "Food", month: nil), "no budget for 'Food' (default); see 'expenses budget list'"),
    (.ruleNotFound(7), "no rule with id 7; see 'expenses rules list'"),
    (
      .profileNotFound("bank"),
      "no import profile named 'bank'; save one with 'expenses import FILE ... --save-profile bank'"
    ),
    (.expenseNotFound([4]), "no expense with id 4; nothing was changed (see 'expenses list' for ids)"),
    (.expenseNotFound([4, 5]), "no expense with ids 4, 5; nothing was changed (see 'expenses list' for ids)"),
    (.importNotFound(3), "no import with id 3; see 'expenses imports'"),
    (.tokenExists("phone"), "a token named 'phone' exists already; choose another name (see 'expenses token list')"),
    (.tokenNotFound("phone"), "no active token named 'phone'; see 'expenses token list'"),
    (.invalidCursor("zz"), "'zz' is not a cursor of this list; start again without one"),
    (
      .categoryInUse("Food"),
      "category 'Food' is still used by expenses, budgets or rules; nothing was changed"
    ),
    (.categoryNotFound("Fod"), "no category 'Fod'; see 'expenses categories'"),
    (
      .accountNotFound("8812"),
      "no account '8812' (nor one account whose name starts or ends with it); see 'expenses accounts'"
    ),
    (.notPaired(7), "expense #7 is not one side of a transfer pair; see 'expenses transfers' for the pairs"),
    (
      .fileSizeLimit(path: "db", bytes: 1_024_000),
      "cannot write db: it reached this shell's file-size limit (ulimit -f: 1024000 bytes). Nothing of this command "
        + "was written and the earlier data is intact; raise the limit (ulimit -f unlimited) and try again"
    ),
    (
      .splitPart(id: 2, parts: [1, 2], change: .delete),
      "expense 2 is one part of a split transaction (expenses 1 2): deleting it alone would leave the bank's amount short; delete all parts together ('expenses delete 1 2' or '--whole-split'); nothing was changed"
    ),
    (
      .splitPart(id: 2, parts: [1, 2], change: .amountOrDate),
      "expense 2 is one part of a split transaction (expenses 1 2) whose parts add up to the bank's amount: a part's amount and date can't change alone (its category, description and account can); nothing was changed"
    ),
    (
      .ledgerNotEmpty(path: "pg", ledger: "home", what: "3 expenses"),
      "ledger 'home' of pg already holds data (3 expenses); nothing was copied. A copy goes into an empty ledger only\n  hint: name a new ledger with --ledger NAME, or copy into a new database"
    ),
    (
      .noLedger(path: "pg", ledger: "home"),
      "pg has no ledger named 'home'\n  hint: check the ledger name ('expenses ledger list'); 'expenses ledger create home' or 'expenses copy --to URL --ledger home' creates one"
    ),
    (.ledgerExists("family"), "a ledger named 'family' exists already; see 'expenses ledger list'"),
    (
      .invalidName(kind: "user", name: "a/b"),
      "'a/b' cannot name a user: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
    ),
    (
      .notAMember(user: "kim", ledger: "family"),
      "user 'kim' is not a member of ledger 'family'\n  hint: 'expenses user add kim --ledger family --role read|write|owner'; 'expenses user list' shows who is where"
    ),
    (
      .lastOwner(user: "local", ledger: "family"),
      "'local' is the last owner of ledger 'family'; nothing was changed\n  hint: make another user owner first ('expenses user add NAME --ledger family --role owner')"
    ),
    (.sqlite("boom"), "database error: boom"),
    (
      .keyTaken(id: 4, holder: 9),
      "expense 4 cannot come back: expense 9, stored since, holds its place (the same day and fingerprint: the same row of a file imported again); nothing was changed\n  hint: 'expenses delete 9' first, then undo again"
    ),
  ]

  static func name(of error: StoreError) -> String {
    switch error {
    case .keyTaken: return "keyTaken"
    case .newerSchema: return "newerSchema"
    case .cannotOpen: return "cannotOpen"
    case .noDatabase: return "noDatabase"
    case .notADatabase: return "notADatabase"
    case .notSQLite: return "notSQLite"
    case .busy: return "busy"
    case .noConnection: return "noConnection"
    case .poolExhausted: return "poolExhausted"
    case .corrupt: return "corrupt"
    case .diskFull: return "diskFull"
    case .readOnly: return "readOnly"
    case .io: return "io"
    case .unreadable: return "unreadable"
    case .totalTooLarge: return "totalTooLarge"
    case .budgetNotFound: return "budgetNotFound"
    case .ruleNotFound: return "ruleNotFound"
    case .profileNotFound: return "profileNotFound"
    case .expenseNotFound: return "expenseNotFound"
    case .importNotFound: return "importNotFound"
    case .tokenExists: return "tokenExists"
    case .tokenNotFound: return "tokenNotFound"
    case .invalidCursor: return "invalidCursor"
    case .categoryInUse: return "categoryInUse"
    case .categoryNotFound: return "categoryNotFound"
    case .fileSizeLimit: return "fileSizeLimit"
    case .splitPart: return "splitPart"
    case .ledgerNotEmpty: return "ledgerNotEmpty"
    case .noLedger: return "noLedger"
    case .ledgerExists: return "ledgerExists"
    case .invalidName: return "invalidName"
    case .notAMember: return "notAMember"
    case .lastOwner: return "lastOwner"
    case .accountNotFound: return "accountNotFound"
    case .notPaired: return "notPaired"
    case .sqlite: return "sqlite"
    }
  }

  @Test func everyCaseHasItsMessage() {
    for (error, message) in Self.pinned {
      #expect(error.description == message)
      #expect(error.localizedDescription == message, "LocalizedError gives the same text")
    }
    #expect(Set(Self.pinned.map { Self.name(of: $0.0) }).count == 36, "every case is pinned")
  }

  @Test func backupAndTotalMessages() {
    let backup: [(BackupError, String)] = [
      (.missing(path: "b"), "b: no such file"),
      (.unreadable(path: "b", reason: "EACCES"), "cannot read b: EACCES"),
      (.damaged(path: "b", detail: "bad page"), "b is damaged or not a database (bad page); nothing was restored"),
      (.notOurs(path: "b"), "b is not an expenses database; nothing was restored"),
      (
        .newerSchema(path: "b", found: 9, supported: AppDatabase.schemaVersion),
        "b was written by a newer version of expenses (schema 9, this version reads up to \(AppDatabase.schemaVersion)); upgrade expenses to restore it"
      ),
    ]
    for (error, message) in backup {
      #expect(error.description == message)
      #expect(error.localizedDescription == message)
    }
    let overflow = TotalOverflow(
      line: 4, month: "2026-10", currency: "USD", category: "Food", amount: Money(minor: -5, currency: .usd))
    let expected =
      "the amount -0.05 would bring the 2026-10 total of Food (USD) past 46116860184273879.03, the most expenses can add up in one month and category; nothing was written"
    #expect(overflow.description == expected)
    #expect(overflow.localizedDescription == expected)
  }
}
