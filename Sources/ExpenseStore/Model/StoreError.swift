import ExpenseCore
import Foundation

/// Errors of the store: what went wrong with the database, said so a user can act on it.
public enum StoreError: Error, Equatable, Sendable {
  /// The database was written by a newer version of expenses (its schema is ahead of ours).
  case newerSchema(path: String, found: Int, supported: Int)
  /// The database file could not be created or opened.
  case cannotOpen(path: String, reason: String)
  /// A command that only reads was pointed at a database that does not exist (nothing is
  /// created: a mistyped `--db` must not leave folders and an empty database behind).
  case noDatabase(path: String)
  /// The file is not an expenses database (or not SQLite at all).
  case notADatabase(path: String)
  /// The file is not SQLite at all (a text file, an empty file named as a database to read).
  case notSQLite(path: String, detail: String)
  /// Another process holds the write lock for longer than this one would wait.
  case busy(path: String)
  /// The database server has no connection left to give (PostgreSQL's `max_connections`, or a
  /// role's or database's connection limit).
  case noConnection(path: String)
  /// Every connection of this process's pool to the database server was in use for longer
  /// than a call would wait (`expenses serve --pool-size`).
  case poolExhausted(path: String, size: Int)
  /// SQLite found the file damaged (SQLITE_CORRUPT / SQLITE_NOTADB while in use).
  case corrupt(path: String, detail: String)
  /// The disk (or quota) is full.
  case diskFull(path: String)
  /// A write would pass the process's file-size limit (`ulimit -f`, `bytes`).
  case fileSizeLimit(path: String, bytes: UInt64)
  /// The file or its folder cannot be written; `action` says what needed to write.
  case readOnly(path: String, action: String)
  /// Another I/O failure of the file.
  case io(path: String, detail: String)
  /// A stored value has a type or form this version cannot read (a damaged or hand-edited row).
  case unreadable(path: String, detail: String)
  /// A month's total would pass what 64-bit minor units can add up.
  case totalTooLarge(path: String, detail: String)
  /// No budget matched what was asked to be removed.
  case budgetNotFound(category: String, month: Month?)
  /// No rule has this id.
  case ruleNotFound(Int64)
  /// No saved import profile has this name.
  case profileNotFound(String)
  /// No expense has these ids (nothing was changed).
  case expenseNotFound([Int64])
  /// No recorded import has this id.
  case importNotFound(Int64)
  /// An API token with this name exists already (revoked ones too).
  case tokenExists(String)
  /// No active API token has this name.
  case tokenNotFound(String)
  /// An expense page cursor that this database did not give.
  case invalidCursor(String)
  /// A category is still named by expenses, budgets or rules.
  case categoryInUse(String)
  /// No category has this name (nor a spelling of it).
  case categoryNotFound(String)
  /// Expense `id` is one part of a split transaction (`parts`, its ids in order) and the change
  /// would touch it alone: a delete without the other parts, or a new amount or date.
  case splitPart(id: Int64, parts: [Int64], change: SplitChange)
  /// A copy was asked into a ledger that holds data already (`what` says which).
  case ledgerNotEmpty(path: String, ledger: String, what: String)
  /// The PostgreSQL database has no ledger of this name.
  case noLedger(path: String, ledger: String)
  /// A ledger with this name exists already.
  case ledgerExists(String)
  /// A ledger or user name that is not letters, digits, `.`, `_` and `-` (`DirectoryName`).
  case invalidName(kind: String, name: String)
  /// This user is not a member of this ledger.
  case notAMember(user: String, ledger: String)
  /// The change would leave a ledger without an owner.
  case lastOwner(user: String, ledger: String)
  /// No account has this name, nor ends with it alone (`accounts rename`).
  case accountNotFound(String)
  /// Expense `id` is not one side of a transfer pair (`transfers unpair`).
  case notPaired(Int64)
  /// An SQLite error that is not one of the above.
  case sqlite(String)
  /// A row an undo would bring back cannot come back: `holder` (stored since) has its id or its
  /// key (the same day and fingerprint, so the same row of a file imported again).
  case keyTaken(id: Int64, holder: Int64)
}

extension StoreError: CustomStringConvertible, LocalizedError {
  public var errorDescription: String? { description }

  public var description: String {
    switch self {
    case .newerSchema(let path, let found, let supported):
      return
        "\(path) was written by a newer version of expenses (schema \(found), this version reads up to \(supported)); upgrade expenses to open it"
    case .cannotOpen(let path, let reason):
      return "cannot open database \(path): \(reason)"
    case .noDatabase(let path):
      return
        "no database at \(path): nothing has been imported there yet\n  hint: check --db or $EXPENSES_DB, import a file first (expenses import FILE), or try 'expenses demo'"
    case .notADatabase(let path):
      return
        "\(path) is not an expenses database (another program's file, or not SQLite); it was left unchanged. Choose another file with --db"
    case .notSQLite(let path, let detail):
      return
        "\(path) is not a SQLite database (\(detail)); it was left unchanged. Choose another file with --db"
    case .busy(let path):
      return
        "\(path) is busy: another process is writing to it. Nothing was written; try again when it is done, or wait longer with --wait SECONDS"
    case .poolExhausted(let path, let size):
      return
        "all \(size) connections of this server's pool to \(path) stayed in use while the request waited. Nothing was written; try again in a moment\n  hint: raise expenses serve --pool-size (within the server's max_connections)"
    case .noConnection(let path):
      return
        "\(path) has no connection left to give (max_connections, or the role's or database's CONNECTION LIMIT). Nothing was written; try again in a moment\n  hint: raise the limit, or lower the connections its servers hold (expenses serve --pool-size)"
    case .corrupt(let path, let detail):
      return
        "\(path) is damaged (\(detail)); the command stopped and wrote nothing more.\n  hint: run 'expenses check' to see what is wrong, and 'expenses restore BACKUP' to go back to a backup"
    case .diskFull(let path):
      return
        "cannot write \(path): the disk is full. Nothing of this command was written and the earlier data is intact; free some space and try again"
    case .fileSizeLimit(let path, let bytes):
      return
        "cannot write \(path): it reached this shell's file-size limit (ulimit -f: \(bytes) bytes). Nothing of this "
        + "command was written and the earlier data is intact; raise the limit (ulimit -f unlimited) and try again"
    case .readOnly(let path, let action):
      return "\(path) is read-only: cannot \(action); reports and lists still work. Nothing was written"
    case .io(let path, let detail):
      return "\(path): I/O error: \(detail)"
    case .unreadable(let path, let detail):
      return
        "\(path) holds a value this version cannot read: \(detail)\n  hint: run 'expenses check' to find the damaged rows"
    case .totalTooLarge(let path, let detail):
      return "\(path): \(detail)"
    case .budgetNotFound(let category, let month):
      let when = month.map { " for \($0)" } ?? " (default)"
      return "no budget for '\(category)'\(when); see 'expenses budget list'"
    case .ruleNotFound(let id):
      return "no rule with id \(id); see 'expenses rules list'"
    case .profileNotFound(let name):
      return "no import profile named '\(name)'; save one with 'expenses import FILE ... --save-profile \(name)'"
    case .expenseNotFound(let ids):
      let list = ids.map(String.init).joined(separator: ", ")
      return
        "no expense with id\(ids.count == 1 ? "" : "s") \(list); nothing was changed (see 'expenses list' for ids)"
    case .importNotFound(let id):
      return "no import with id \(id); see 'expenses imports'"
    case .tokenExists(let name):
      return "a token named '\(name)' exists already; choose another name (see 'expenses token list')"
    case .tokenNotFound(let name):
      return "no active token named '\(name)'; see 'expenses token list'"
    case .invalidCursor(let cursor):
      return "'\(cursor)' is not a cursor of this list; start again without one"
    case .categoryInUse(let name):
      return "category '\(name)' is still used by expenses, budgets or rules; nothing was changed"
    case .categoryNotFound(let name):
      return "no category '\(name)'; see 'expenses categories'"
    case .accountNotFound(let name):
      return "no account '\(name)' (nor one account whose name starts or ends with it); see 'expenses accounts'"
    case .notPaired(let id):
      return "expense #\(id) is not one side of a transfer pair; see 'expenses transfers' for the pairs"
    case .splitPart(let id, let parts, let change):
      let list = parts.map(String.init).joined(separator: " ")
      let set = "expense \(id) is one part of a split transaction (expenses \(list))"
      switch change {
      case .delete:
        return
          "\(set): deleting it alone would leave the bank's amount short; delete all parts together ('expenses delete \(list)' or '--whole-split'); nothing was changed"
      case .amountOrDate:
        return
          "\(set) whose parts add up to the bank's amount: a part's amount and date can't change alone (its category, description and account can); nothing was changed"
      }
    case .ledgerNotEmpty(let path, let ledger, let what):
      return
        "ledger '\(ledger)' of \(path) already holds data (\(what)); nothing was copied. A copy goes into an empty ledger only\n  hint: name a new ledger with --ledger NAME, or copy into a new database"
    case .noLedger(let path, let ledger):
      return
        "\(path) has no ledger named '\(ledger)'\n  hint: check the ledger name ('expenses ledger list'); 'expenses ledger create \(ledger)' or 'expenses copy --to URL --ledger \(ledger)' creates one"
    case .ledgerExists(let name):
      return "a ledger named '\(name)' exists already; see 'expenses ledger list'"
    case .invalidName(let kind, let name):
      return
        "'\(name)' cannot name a \(kind): use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
    case .notAMember(let user, let ledger):
      return
        "user '\(user)' is not a member of ledger '\(ledger)'\n  hint: 'expenses user add \(user) --ledger \(ledger) --role read|write|owner'; 'expenses user list' shows who is where"
    case .lastOwner(let user, let ledger):
      return
        "'\(user)' is the last owner of ledger '\(ledger)'; nothing was changed\n  hint: make another user owner first ('expenses user add NAME --ledger \(ledger) --role owner')"
    case .sqlite(let message):
      return "database error: \(message)"
    case .keyTaken(let id, let holder):
      return
        "expense \(id) cannot come back: expense \(holder), stored since, holds its place (the same day and fingerprint: the same row of a file imported again); nothing was changed\n  hint: 'expenses delete \(holder)' first, then undo again"
    }
  }
}

extension StoreError: ClassifiedError {
  public var kind: ErrorKind {
    switch self {
    case .newerSchema, .notADatabase, .notSQLite, .unreadable, .corrupt: return .damagedDatabase
    case .totalTooLarge: return .badData
    case .cannotOpen, .io: return .databaseIO
    case .diskFull, .fileSizeLimit, .readOnly: return .io
    case .busy, .noConnection, .poolExhausted: return .busy
    case .noDatabase, .noLedger: return .noDatabase
    case .ledgerNotEmpty: return .cannotCreate
    case .budgetNotFound, .ruleNotFound, .profileNotFound, .expenseNotFound, .importNotFound, .tokenNotFound,
      .categoryNotFound, .notPaired, .accountNotFound:
      return .notFound
    case .tokenExists, .categoryInUse, .splitPart, .ledgerExists, .lastOwner, .keyTaken: return .conflict
    case .invalidName: return .invalidValue
    case .notAMember: return .notFound
    case .invalidCursor: return .usage
    case .sqlite: return .internal
    }
  }
}

/// What a refused change to one part of a split transaction was (see `StoreError.splitPart`).
public enum SplitChange: String, Sendable, Equatable {
  case delete
  case amountOrDate
}
