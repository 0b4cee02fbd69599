import ExpenseStore

extension AppDatabase {
  /// `PRAGMA application_id` of every expenses database ("EXPS"): how a file is known to be
  /// ours before anything is written to it (see `sqlite3`'s magic.txt for the convention).
  public static let applicationID: Int32 = 0x4558_5053
}
