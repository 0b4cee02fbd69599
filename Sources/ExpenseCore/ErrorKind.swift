/// What kind of failure an error is, independent of the front end: every module's errors carry
/// one (`ClassifiedError`), and each front end maps it once to its own codes (the CLI to sysexits
/// in `SysExit.code(for:)`, the HTTP API to statuses in `ProblemMiddleware.status(for:)`).
///
/// Each case names its sysexits code and HTTP status. The database's own failures differ from the
/// input's: to the CLI the database is the user's file (65, 66, 74), to the server it is its own
/// state, which no request can fix (500, with the message; never the bare "the server failed").
public enum ErrorKind: Sendable, Equatable, Hashable, CaseIterable {
  /// The request itself is wrong: a width too small, a section id that does not exist, a cursor
  /// this list did not give (sysexits 64, HTTP 400).
  case usage
  /// A value typed on the command line or sent in a request is not valid: a month, a date, an
  /// amount, a currency, an option's value (64, HTTP 422).
  case invalidValue
  /// A named thing does not exist: an expense id, an import, a rule, a budget, a token, a
  /// profile (64, HTTP 404).
  case notFound
  /// The change conflicts with what is stored: a token name taken, a category still in use
  /// (64, HTTP 409).
  case conflict
  /// The input's content is wrong: a bad row, a layout that cannot be worked out, every row
  /// excluded, a monthly total past the limit, a file that is not a backup (65, HTTP 422).
  case badData
  /// The database is not usable: not SQLite, another program's file, written by a newer version,
  /// damaged, holding a value this version cannot read (65, HTTP 500 with the message).
  case damagedDatabase
  /// A file that should exist does not (66, HTTP 404).
  case noInput
  /// The database does not exist, for a command that only reads (66, HTTP 500 with the message).
  case noDatabase
  /// A service this command needs is not available: the address to listen on is taken or not
  /// this machine's (69, HTTP 503).
  case unavailable
  /// A failure that is no one's input: an SQLite error none of the others describe (70, HTTP 500).
  case `internal`
  /// An output file cannot be created or must not be replaced: it exists (without `--force`),
  /// it is a folder, the database or the input (73, HTTP 409).
  case cannotCreate
  /// Reading or writing failed in a way that may pass: the disk is full, the file is read-only,
  /// a write failed part way (74, HTTP 503 with `Retry-After`).
  case io
  /// The database cannot be opened or read (an I/O error of the file) (74, HTTP 500 with the
  /// message).
  case databaseIO
  /// Another process holds the write lock for longer than this one would wait (75, HTTP 503
  /// with `Retry-After`).
  case busy
}

/// An error that says what kind of failure it is; its `description` is the message for a person.
public protocol ClassifiedError: Error, CustomStringConvertible {
  var kind: ErrorKind { get }
}

extension CoreError: ClassifiedError {
  /// Every core error is a value the user gave that does not make sense.
  public var kind: ErrorKind { .invalidValue }
}
