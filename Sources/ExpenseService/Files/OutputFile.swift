import Foundation
import SystemIO

#if canImport(Glibc)
  import Glibc
#endif

/// A file a command was asked to create (`--rejects`, `backup FILE`, `export -o`), written
/// safely.
///
/// Why: one wrong tab completion used to aim `--rejects` at the database and replace it, and
/// `--force` used to rename a temporary file over whatever the path named, `/dev/null` and a
/// FIFO included. The path is checked before anything is written: never any database the command
/// knows (`ProtectedFiles`: the one in use, the main file, every registered ledger's) or their
/// `-wal`/`-shm`/`-journal`, never an input of the command, `force` or not. Then, by what the path is:
/// - nothing: the content goes to a temporary file (mode 0600) beside it, renamed into place
///   on `commit()`, so a failure half-way leaves nothing;
/// - a regular file: the same, and only with `force` (the old file is replaced atomically);
/// - a symbolic link: followed; its target is treated as above (a regular target is replaced
///   atomically and the link stays a link); a link to nothing is refused;
/// - a FIFO or a character device (`/dev/null`, a terminal): written through, never replaced,
///   with or without `force` (nothing in it is lost); the content waits in a temporary file
///   and is copied into it on `commit()`;
/// - a directory, a block device or a socket: refused.
public final class OutputFile {
  /// How `commit` puts the content in place.
  enum Delivery {
    /// Rename the temporary file over `destination` (missing, or a regular file).
    case rename
    /// Open `destination` for writing (no create, no truncate) and copy the content into it.
    case writeThrough
  }

  /// Where the file ends up, as given (made absolute).
  public let path: String
  /// The file actually written: `path`, or its target when `path` is a symbolic link.
  let destination: String
  let delivery: Delivery
  /// The temporary file that `write` fills and `commit` renames or copies.
  public let temporaryPath: String
  private let descriptor: Int32
  /// Set once the file was put into place or thrown away: the descriptor is closed once.
  private var finished = false

  /// An output never committed (an error, a dry run) leaves nothing behind.
  deinit { discard() }

  /// Checks `path` and creates an empty temporary file for the content.
  /// - Parameters:
  ///   - protected: the files this output must not be (every database the command knows, with
  ///     their `-wal`, `-shm` and `-journal`, and the command's inputs); see `ProtectedFiles`.
  ///   - infix: put in the temporary file's name (`.NAME<infix>.XXXXXX`), so a process that
  ///     finds one left by a killed run knows what made it.
  public init(path: String, force: Bool, protected: ProtectedFiles, infix: String = "") throws(ServiceError) {
    let target = OutputFile.absolute(path)
    if let entry = protected.entry(for: path) {
      throw .protectedOutput(path: path, what: entry.what, other: entry.shown)
    }
    let (destination, delivery) = try OutputFile.plan(path: path, target: target, force: force)
    // A FIFO's or a device's folder (/dev) is no place for a temporary file: the system's is.
    let (fd, temporary) = try OutputFile.temporaryFile(
      beside: delivery == .rename ? destination : NSTemporaryDirectory() + "/expenses-output", infix: infix)
    self.destination = destination
    self.delivery = delivery
    self.path = target
    self.temporaryPath = temporary
    self.descriptor = fd
  }

  /// Decides, from what is at `target` now, which file is written and how (see the type's doc).
  static func plan(path: String, target: String, force: Bool) throws(ServiceError) -> (String, Delivery) {
    var status = stat()
    guard lstat(target, &status) == 0 else { return (target, .rename) }
    var destination = target
    if (status.st_mode & S_IFMT) == S_IFLNK {
      guard let resolved = realpath(target, nil) else {
        throw .outputIsSpecial(path: path, what: "a symbolic link to a missing file")
      }
      destination = String(cString: resolved)
      free(resolved)
      guard stat(destination, &status) == 0 else {
        throw .outputIsSpecial(path: path, what: "a symbolic link to a missing file")
      }
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG:
      if !force { throw .outputExists(path: path) }
      return (destination, .rename)
    case S_IFIFO, S_IFCHR: return (destination, .writeThrough)
    case S_IFDIR: throw .outputIsDirectory(path: path)
    case S_IFBLK: throw .outputIsSpecial(path: path, what: "a block device")
    case S_IFSOCK: throw .outputIsSpecial(path: path, what: "a socket")
    default: throw .outputIsSpecial(path: path, what: "not a regular file")
    }
  }

  /// Creates an empty 0600 file `.NAME<infix>.XXXXXX` beside `target`: in the same folder, so
  /// renaming it over the target is atomic. Returns its open descriptor and path.
  public static func temporaryFile(beside target: String, infix: String = "") throws(ServiceError) -> (Int32, String) {
    let directory = (absolute(target) as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    var template = Array("\(directory)/.\(name)\(infix).XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard fd >= 0 else {
      throw .cannotCreate(path: "a file beside \(target)", reason: String(cString: strerror(errno)))
    }
    fchmod(fd, 0o600)
    return (fd, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
  }

  /// Appends `text` to the temporary file.
  public func write(_ text: String) throws(ServiceError) {
    if let failure = FileDescriptorWriter.writeAll(descriptor, text) {
      throw .cannotWrite(path: path, reason: String(cString: strerror(failure)))
    }
  }

  /// Appends `bytes` to the temporary file (a block of a streamed export).
  public func write(bytes: UnsafeRawBufferPointer) throws(ServiceError) {
    if let failure = FileDescriptorWriter.writeAll(descriptor, bytes) {
      throw .cannotWrite(path: path, reason: String(cString: strerror(failure)))
    }
  }

  /// Puts the content in place: flushed to disk and renamed over the destination, or copied
  /// into the FIFO or device it names.
  public func commit() throws(ServiceError) {
    guard !finished else { return }
    finished = true
    defer { unlink(temporaryPath) }
    switch delivery {
    case .rename:
      let synced = fsync(descriptor) == 0
      let syncError = errno
      close(descriptor)
      guard synced else { throw .cannotWrite(path: path, reason: String(cString: strerror(syncError))) }
      // What is there now must still be what `plan` saw: never rename over a FIFO or a device
      // that took the place of a file in the meantime.
      var status = stat()
      if lstat(destination, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG {
        throw .outputIsSpecial(path: path, what: "no longer a regular file")
      }
      guard rename(temporaryPath, destination) == 0 else {
        throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
      }
    case .writeThrough:
      defer { close(descriptor) }
      try copyThrough()
    }
  }

  /// Opens the FIFO or device without creating or truncating anything (a FIFO waits for its
  /// reader here) and copies the temporary file into it.
  private func copyThrough() throws(ServiceError) {
    var output: Int32
    repeat { output = open(destination, O_WRONLY | O_NOCTTY | O_CLOEXEC) } while output < 0 && errno == EINTR
    guard output >= 0 else { throw .cannotCreate(path: path, reason: String(cString: strerror(errno))) }
    var status = stat()
    guard fstat(output, &status) == 0, [S_IFIFO, S_IFCHR].contains(status.st_mode & S_IFMT) else {
      close(output)
      throw .outputIsSpecial(path: path, what: "no longer a FIFO or a device")
    }
    lseek(descriptor, 0, SEEK_SET)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { raw in raw.baseAddress.map { read(descriptor, $0, raw.count) } ?? 0 }
      if n < 0 && errno == EINTR { continue }
      if n < 0 {
        let reason = String(cString: strerror(errno))
        close(output)
        throw .cannotWrite(path: path, reason: reason)
      }
      if n == 0 { break }
      if let failure = FileDescriptorWriter.writeAll(output, buffer, count: n) {
        close(output)
        throw .cannotWrite(path: path, reason: String(cString: strerror(failure)))
      }
    }
    guard close(output) == 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
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

  /// `path` with every symbolic link resolved as far as the links lead: a link to a database's
  /// `-wal` that is not there right now still names that `-wal`.
  static func resolved(_ path: String) -> String {
    var current = path
    for _ in 0..<40 {
      var status = stat()
      guard lstat(current, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return current }
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
      let base = (current as NSString).deletingLastPathComponent
      current = absolute(target.hasPrefix("/") ? target : base + "/" + target)
    }
    return current
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
