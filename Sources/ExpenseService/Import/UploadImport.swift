import ExpenseImport
import Foundation

/// An upload's import options (the query mirrors `expenses import`'s flags).
public struct UploadImport: Sendable {
  /// The name the rows' source is stored under.
  public var fileName: String
  /// A dry run (`--dry-run`): nothing is written.
  public var preview: Bool
  public var skipInvalid: Bool
  public var flags: ImportFlags
  /// `keepProbableDuplicates`: add the rows found to be probably stored already.
  public var keepProbableDuplicates = false
  /// What error messages call the upload: the `file` the client gave, or "the upload" (never
  /// the server's temporary file).
  public var messageName: String

  public init(fileName: String, preview: Bool, skipInvalid: Bool, flags: ImportFlags, messageName: String? = nil) {
    self.fileName = fileName
    self.messageName = messageName ?? fileName
    self.preview = preview
    self.skipInvalid = skipInvalid
    self.flags = flags
  }
}
