import Crypto
import Foundation
import OpenAPIRuntime
import Synchronization

/// Receives import uploads: streams each body to a private temporary file beside the database
/// (never more than `limit` bytes: 413 past it), hashing it on the way for idempotency keys,
/// and keeps the keys whose first request is still running (a second one gets 409).
final class ImportUploads: Sendable {
  /// 64 MiB: a decade of a busy account's statements fits many times over.
  static let defaultLimit = 64 << 20

  let limit: Int
  let directory: String
  private let running = Mutex<Set<String>>([])

  init(directory: String, limit: Int = ImportUploads.defaultLimit) {
    self.directory = directory
    self.limit = limit
  }

  /// A received body: where it is and the SHA-256 of the request (query and body).
  struct Upload {
    var path: String
    var requestHash: String
  }

  /// Writes `body` to a new file (mode 0600); the caller removes it. `query` joins the hash.
  func receive(_ body: HTTPBody, query: String) async throws -> Upload {
    if case .known(let length) = body.length, length > limit { throw tooLarge() }
    var template = Array((directory + "/.expenses-upload-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard fd >= 0 else {
      throw APIProblem(
        status: .serviceUnavailable, detail: "cannot store the upload: \(String(cString: strerror(errno)))")
    }
    var hasher = SHA256()
    hasher.update(data: Data(query.utf8))
    hasher.update(data: Data([0]))
    var total = 0
    do {
      defer { close(fd) }
      for try await chunk in body {
        total += chunk.count
        if total > limit { throw tooLarge() }
        hasher.update(data: chunk)
        try chunk.withUnsafeBytes { buffer in
          var offset = 0
          while offset < buffer.count {
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
              if errno == EINTR { continue }
              throw APIProblem(
                status: .serviceUnavailable, detail: "cannot store the upload: \(String(cString: strerror(errno)))")
            }
            offset += written
          }
        }
      }
    } catch {
      unlink(path)
      throw error
    }
    let hash = hasher.finalize().map { String(format: "%02x", $0) }.joined()
    return Upload(path: path, requestHash: hash)
  }

  func tooLarge() -> APIProblem {
    APIProblem(status: .contentTooLarge, detail: "the body is over \(limit >> 20) MiB; split the file", field: "body")
  }

  /// Marks `key` as running; false when it already is.
  func begin(_ key: String) -> Bool { running.withLock { $0.insert(key).inserted } }

  func end(_ key: String) { _ = running.withLock { $0.remove(key) } }
}
