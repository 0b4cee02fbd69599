import ExpenseRender
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A file a command was asked to create (`--rejects`, `backup FILE`), written safely.
///
/// Why: one wrong tab completion used to aim `--rejects` at the database and replace it. The
/// path is checked before anything is written: never the database or its `-wal`/`-shm`/
/// `-journal`, never an input of the command, never an existing file unless `force`. The
/// content goes to a temporary file (mode 0600) beside the target and is renamed over it on
/// `commit()`, so a failure half-way leaves the target as it was.
struct OutputFile {
  /// Where the file ends up.
  let path: String
  /// The temporary file beside `path` that `write` fills and `commit` renames.
  let temporaryPath: String
  private var descriptor: Int32

  /// Checks `path` and creates an empty temporary file beside it.
  /// - Parameters:
  ///   - database: the database in use, protected with its `-wal`, `-shm` and `-journal`.
  ///   - inputs: files the command reads (the file being imported).
  init(path: String, force: Bool, database: String?, inputs: [String] = []) throws(CLIFailure) {
    let target = OutputFile.absolute(path)
    var protected = inputs.map { ($0, "the input file") }
    if let database, database != ":memory:" {
      protected.append((database, "the database"))
      for suffix in ["-wal", "-shm", "-journal"] {
        protected.append((database + suffix, "the database's \(suffix) file"))
      }
    }
    for (other, what) in protected where OutputFile.same(target, OutputFile.absolute(other)) {
      throw CLIFailure(
        message:
          "refusing to write \(TerminalText.sanitize(path)): it is \(what) (\(TerminalText.sanitize(other))); choose another path",
        code: SysExit.cantCreate)
    }
    var status = stat()
    if lstat(target, &status) == 0 {
      if (status.st_mode & S_IFMT) == S_IFDIR {
        throw CLIFailure(
          message: "cannot write \(TerminalText.sanitize(path)): it is a directory", code: SysExit.cantCreate)
      }
      if !force {
        throw CLIFailure(
          message: "\(TerminalText.sanitize(path)) already exists; choose another path or add --force to replace it",
          code: SysExit.cantCreate)
      }
    }
    let (fd, temporary) = try OutputFile.temporaryFile(beside: target)
    self.path = target
    self.temporaryPath = temporary
    self.descriptor = fd
  }

  /// Creates an empty 0600 file `.NAME<infix>.XXXXXX` beside `target`: in the same folder, so
  /// renaming it over the target is atomic. Returns its open descriptor and path.
  static func temporaryFile(beside target: String, infix: String = "") throws(CLIFailure) -> (Int32, String) {
    let directory = (absolute(target) as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    var template = Array("\(directory)/.\(name)\(infix).XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
      throw CLIFailure(
        message: "cannot create a file beside \(TerminalText.sanitize(target)): \(String(cString: strerror(errno)))",
        code: SysExit.cantCreate)
    }
    fchmod(fd, 0o600)
    return (fd, String(cString: template.withUnsafeBufferPointer { $0.baseAddress! }))
  }

  /// Appends `text` to the temporary file.
  func write(_ text: String) throws(CLIFailure) {
    do { try Console.write(text, to: descriptor) } catch {
      throw CLIFailure(
        message: "cannot write \(TerminalText.sanitize(path)): \(String(cString: strerror(error.code)))",
        code: SysExit.ioError)
    }
  }

  /// Flushes the temporary file to disk and renames it over `path`.
  func commit() throws(CLIFailure) {
    let synced = fsync(descriptor) == 0
    let syncError = errno
    close(descriptor)
    guard synced else {
      unlink(temporaryPath)
      throw CLIFailure(
        message: "cannot write \(TerminalText.sanitize(path)): \(String(cString: strerror(syncError)))",
        code: SysExit.ioError)
    }
    guard rename(temporaryPath, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporaryPath)
      throw CLIFailure(message: "cannot create \(TerminalText.sanitize(path)): \(reason)", code: SysExit.cantCreate)
    }
  }

  /// Removes the temporary file; the target is left as it was.
  func discard() {
    close(descriptor)
    unlink(temporaryPath)
  }

  /// `path` made absolute, its directory resolved through symlinks (the file itself may not
  /// exist yet), so two spellings of one file compare equal.
  static func absolute(_ path: String) -> String {
    let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let directory = (full as NSString).deletingLastPathComponent
    let name = (full as NSString).lastPathComponent
    let resolved = (directory as NSString).resolvingSymlinksInPath
    return (resolved as NSString).appendingPathComponent(name)
  }

  /// True when `a` and `b` name one file: the same inode when both exist (hard links,
  /// symlinks), else the same resolved path.
  static func same(_ a: String, _ b: String) -> Bool {
    var sa = stat()
    var sb = stat()
    if stat(a, &sa) == 0, stat(b, &sb) == 0 { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
    return a == b
  }
}
