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
public final class OutputFile {
  /// Where the file ends up.
  public let path: String
  /// The temporary file beside `path` that `write` fills and `commit` renames.
  public let temporaryPath: String
  private let descriptor: Int32
  /// Set once the file was renamed into place or thrown away: the descriptor is closed once.
  private var finished = false

  /// An output never committed (an error, a dry run) leaves nothing behind.
  deinit { discard() }

  /// Checks `path` and creates an empty temporary file beside it.
  /// - Parameters:
  ///   - database: the database in use, protected with its `-wal`, `-shm` and `-journal`.
  ///   - inputs: files the command reads (the file being imported).
  public init(path: String, force: Bool, database: String?, inputs: [String] = []) throws(ServiceError) {
    let target = OutputFile.absolute(path)
    var protected = inputs.map { ($0, "the input file") }
    if let database, database != ":memory:" {
      protected.append((database, "the database"))
      for suffix in ["-wal", "-shm", "-journal"] {
        protected.append((database + suffix, "the database's \(suffix) file"))
      }
    }
    for (other, what) in protected where OutputFile.same(target, OutputFile.absolute(other)) {
      throw .protectedOutput(path: path, what: what, other: other)
    }
    var status = stat()
    if lstat(target, &status) == 0 {
      if (status.st_mode & S_IFMT) == S_IFDIR {
        throw .outputIsDirectory(path: path)
      }
      if !force {
        throw .outputExists(path: path)
      }
    }
    let (fd, temporary) = try OutputFile.temporaryFile(beside: target)
    self.path = target
    self.temporaryPath = temporary
    self.descriptor = fd
  }

  /// Creates an empty 0600 file `.NAME<infix>.XXXXXX` beside `target`: in the same folder, so
  /// renaming it over the target is atomic. Returns its open descriptor and path.
  public static func temporaryFile(beside target: String, infix: String = "") throws(ServiceError) -> (Int32, String) {
    let directory = (absolute(target) as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    var template = Array("\(directory)/.\(name)\(infix).XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
      throw .cannotCreate(path: "a file beside \(target)", reason: String(cString: strerror(errno)))
    }
    fchmod(fd, 0o600)
    return (fd, String(cString: template.withUnsafeBufferPointer { $0.baseAddress! }))
  }

  /// Appends `text` to the temporary file.
  public func write(_ text: String) throws(ServiceError) {
    var bytes = Array(text.utf8)
    var written = 0
    let failure: Int32? = bytes.withUnsafeMutableBytes { buffer -> Int32? in
      while written < buffer.count {
        let n = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        written += n
      }
      return nil
    }
    if let failure { throw .cannotWrite(path: path, reason: String(cString: strerror(failure))) }
  }

  /// Flushes the temporary file to disk and renames it over `path`.
  public func commit() throws(ServiceError) {
    guard !finished else { return }
    finished = true
    let synced = fsync(descriptor) == 0
    let syncError = errno
    close(descriptor)
    guard synced else {
      unlink(temporaryPath)
      throw .cannotWrite(path: path, reason: String(cString: strerror(syncError)))
    }
    guard rename(temporaryPath, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporaryPath)
      throw .cannotCreate(path: path, reason: reason)
    }
  }

  /// Removes the temporary file; the target is left as it was.
  public func discard() {
    guard !finished else { return }
    finished = true
    close(descriptor)
    unlink(temporaryPath)
  }

  /// `path` made absolute, its directory resolved through symlinks (the file itself may not
  /// exist yet), so two spellings of one file compare equal.
  public static func absolute(_ path: String) -> String {
    let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let directory = (full as NSString).deletingLastPathComponent
    let name = (full as NSString).lastPathComponent
    let resolved = (directory as NSString).resolvingSymlinksInPath
    return (resolved as NSString).appendingPathComponent(name)
  }

  /// True when `a` and `b` name one file: the same inode when both exist (hard links,
  /// symlinks), else the same resolved path.
  public static func same(_ a: String, _ b: String) -> Bool {
    var sa = stat()
    var sb = stat()
    if stat(a, &sa) == 0, stat(b, &sb) == 0 { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
    return a == b
  }
}
