import ExpenseCore
import Foundation

/// What a verified backup holds.
public struct BackupInfo: Sendable, Equatable {
  /// Number of expenses in it.
  public var expenseCount: Int
  /// Its schema version (`user_version`).
  public var schemaVersion: Int

  public init(expenseCount: Int, schemaVersion: Int) {
    self.expenseCount = expenseCount
    self.schemaVersion = schemaVersion
  }
}

/// Why a file cannot be restored.
public enum BackupError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
  /// There is no file at the path.
  case missing(path: String)
  /// The file could not be opened or read (permissions, I/O).
  case unreadable(path: String, reason: String)
  /// SQLite's integrity check failed, or the file is not SQLite at all.
  case damaged(path: String, detail: String)
  /// An SQLite file of another program (no application id of ours, none of our tables).
  case notOurs(path: String)
  /// Written by a newer version of expenses.
  case newerSchema(path: String, found: Int, supported: Int)

  public var description: String {
    switch self {
    case .missing(let path): return "\(path): no such file"
    case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
    case .damaged(let path, let detail):
      return "\(path) is damaged or not a database (\(detail)); nothing was restored"
    case .notOurs(let path): return "\(path) is not an expenses database; nothing was restored"
    case .newerSchema(let path, let found, let supported):
      return
        "\(path) was written by a newer version of expenses (schema \(found), this version reads up to \(supported)); upgrade expenses to restore it"
    }
  }

  public var errorDescription: String? { description }
}

extension BackupError: ClassifiedError {
  /// The backup is the input: missing (66), unreadable (74), or not one to restore (65).
  public var kind: ErrorKind {
    switch self {
    case .missing: return .noInput
    case .unreadable: return .io
    case .damaged, .notOurs, .newerSchema: return .badData
    }
  }
}
