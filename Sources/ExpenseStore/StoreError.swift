import ExpenseCore

/// Errors of the store: what went wrong with the database, said so a user can act on it.
public enum StoreError: Error, Equatable, Sendable {
  /// The database was written by a newer version of expenses (its schema is ahead of ours).
  case newerSchema(path: String, found: Int, supported: Int)
  /// The database file could not be created or opened.
  case cannotOpen(path: String, reason: String)
  /// The file is not an expenses database (or not SQLite at all).
  case notADatabase(path: String)
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
  /// An SQLite error that is not one of the above.
  case sqlite(String)
}

extension StoreError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .newerSchema(let path, let found, let supported):
      return
        "\(path) was written by a newer version of expenses (schema \(found), this version reads up to \(supported)); upgrade expenses to open it"
    case .cannotOpen(let path, let reason):
      return "cannot open database \(path): \(reason)"
    case .notADatabase(let path):
      return "\(path) is not an expenses database"
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
    case .sqlite(let message):
      return "database error: \(message)"
    }
  }
}
