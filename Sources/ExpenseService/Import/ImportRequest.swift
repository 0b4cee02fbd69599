import ExpenseImport
import Foundation

/// One import as a front end asks for it: the file, how to read it and what to do with bad
/// rows. The CLI fills it from flags, the HTTP API from a query string.
public struct ImportRequest: Sendable {
  /// The file to read; "-" is standard input.
  public var path: String
  /// How to read the file (flags laid over a saved profile).
  public var options: ImportOptions
  /// Import the good rows and report the bad ones instead of stopping at the first.
  public var skipInvalid = false
  /// With `skipInvalid`: where the rejected rows go (a checked `OutputFile`).
  public var rejectsPath: String?
  /// Let `rejectsPath` replace an existing file.
  public var forceRejects = false
  /// Add the rows found to be probable duplicates of stored rows (of another file of the same
  /// account) instead of leaving them out (`--keep-probable-duplicates`).
  public var keepProbableDuplicates = false
  /// Run everything, write nothing.
  public var dryRun = false
  /// When the import runs, kept in its record (`expenses imports`); the front end reads the
  /// clock, never the store.
  public var importedAt: Date?
  /// Who imports, as the history names them (set by `ExpenseService.importFile`).
  public var changedBy: String?
  /// The name the rows' source is stored under (default: the file's name; "<stdin>" for "-").
  public var sourceName: String?
  /// The name messages give the input instead of its path (an upload's temporary file means
  /// nothing to the client who sent it).
  public var messageName: String?
  /// How many excluded/rejected/duplicate rows the summary explains one by one.
  public var detailLimit = 20
  /// How many rows a dry run lists (a dry run of a million rows lists a few).
  public var previewLimit = 50
  /// Save `options` as a profile under this name (`--save-profile`), in the import's
  /// transaction: both or neither (a dry run still saves it).
  public var saveProfileAs: String?

  public init(path: String, options: ImportOptions = ImportOptions()) {
    self.path = path
    self.options = options
  }

  /// The file as a summary names it.
  var displayName: String { messageName ?? (path == "-" ? "<stdin>" : path) }

  /// The name stored with every row.
  var storedName: String { sourceName ?? (path == "-" ? "<stdin>" : (path as NSString).lastPathComponent) }
}
