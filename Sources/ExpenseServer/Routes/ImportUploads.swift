import Crypto
import ExpenseService
import Foundation
import OpenAPIRuntime
import Synchronization
import SystemIO

/// Receives import uploads: streams each body to a private temporary file beside the database
/// (never more than `limit` bytes: 413 past it), hashing it on the way for idempotency keys,
/// and keeps the keys whose first request is still running (a second one gets 409).
///
/// Each temporary file stays open and locked (`flock`) until it is removed, so a server that
/// starts can tell the files a crashed one left (nobody holds their lock) from the uploads a
/// live server on the same database is importing, and removes only the former.
final class ImportUploads: Sendable {
  /// The temporary files' names start with this (the rest is `mkstemp`'s).
  static let prefix = ".expenses-upload-"

  /// 64 MiB: a decade of a busy account's statements fits many times over.
  static let defaultLimit = 64 << 20

  let limit: Int
  let directory: String
  private let running = Mutex<Set<String>>([])

  init(directory: String, limit: Int = ImportUploads.defaultLimit) {
    self.directory = directory
    self.limit = limit
  }

  /// A received body: where it is, its open and locked descriptor, and the SHA-256 of the
  /// request (query and body).
  struct Upload {
    var path: String
    var descriptor: Int32
    var requestHash: String
  }

  /// Writes `body` to a new file (mode 0600); the caller gives it to `discard` when done.
  /// `query` joins the hash.
  func receive(_ body: HTTPBody, query: String) async throws -> Upload {
    if case .known(let length) = body.length, length > limit { throw tooLarge() }
    var template = Array((directory + "/" + ImportUploads.prefix + "XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
    let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard fd >= 0 else {
      throw APIProblem(
        status: .serviceUnavailable, detail: "cannot store the upload: \(String(cString: strerror(errno)))")
    }
    _ = flock(fd, LOCK_EX)
    var hasher = SHA256()
    hasher.update(data: Data(query.utf8))
    hasher.update(data: Data([0]))
    var total = 0
    do {
      for try await chunk in body {
        total += chunk.count
        if total > limit { throw tooLarge() }
        hasher.update(data: chunk)
        if let code = chunk.withUnsafeBytes({ FileDescriptorWriter.writeAll(fd, $0) }) {
          throw APIProblem(
            status: .serviceUnavailable, detail: "cannot store the upload: \(String(cString: strerror(code)))")
        }
      }
    } catch {
      unlink(path)
      close(fd)
      throw error
    }
    let hash = SHA256Hex.string(hasher.finalize())
    return Upload(path: path, descriptor: fd, requestHash: hash)
  }

  /// Removes an upload's file, then lets its lock go.
  func discard(_ upload: Upload) {
    unlink(upload.path)
    close(upload.descriptor)
  }

  /// Removes the upload files in `directory` that no live server holds (a crash left them);
  /// returns how many. Called once as the server starts.
  @discardableResult
  static func removeAbandoned(in directory: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    var removed = 0
    for name in names where name.hasPrefix(prefix) {
      let path = directory + "/" + name
      let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
      guard fd >= 0 else { continue }
      defer { close(fd) }
      var status = stat()
      guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
      // Held by a live server: its upload is being imported.
      guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
      if unlink(path) == 0 { removed += 1 }
    }
    return removed
  }

  func tooLarge() -> APIProblem {
    APIProblem(status: .contentTooLarge, detail: "the body is over \(limit >> 20) MiB; split the file", field: "body")
  }

  /// Marks `key` as running; false when it already is.
  func begin(_ key: String) -> Bool { running.withLock { $0.insert(key).inserted } }

  func end(_ key: String) { _ = running.withLock { $0.remove(key) } }
}
