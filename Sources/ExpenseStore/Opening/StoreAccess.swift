/// What a front end means to do with the store it opens.
public enum StoreAccess: Sendable {
  /// Reads only: no lock, nothing written, answers while another process imports.
  case read
  /// Reads and writes (a missing database is created).
  case write
}
