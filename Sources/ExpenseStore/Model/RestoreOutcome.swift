/// What `restore(databaseAt:...)` did.
public struct RestoreOutcome: Sendable, Equatable {
  /// What the restored backup holds.
  public var info: BackupInfo
  /// False when there was no database to keep (nothing at the path, or an empty file).
  public var keptPrevious: Bool
  /// True when the old file was too damaged for SQLite to open and lock, so it was moved
  /// aside by name rather than overwritten through SQLite (a process that still has it open
  /// keeps reading the old file until it reopens).
  public var replacedFile: Bool

  public init(info: BackupInfo, keptPrevious: Bool, replacedFile: Bool) {
    self.info = info
    self.keptPrevious = keptPrevious
    self.replacedFile = replacedFile
  }
}
