/// What a front end means to do with the store it opens.
public enum StoreAccess: Sendable {
  /// Reads only: no lock, nothing written, answers while another process imports.
  case read
  /// Reads and writes (a missing database is created).
  case write
  /// `write` for a command that parses before it writes (`import`): a SQLite file is checked
  /// for damage beside the parse, and its commit refused on damage, instead of before
  /// anything begins (`AppDatabase.DamageCheck.atCommit`).
  case writeCheckedAtCommit
}
