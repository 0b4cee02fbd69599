import Crypto
import ExpenseService
import Foundation
import NIOCore
import Synchronization

/// Rendered reports by (month, today), valid while the database's change stamp is unchanged.
///
/// Why: a report is a few SQL aggregates and a render, around a millisecond; an app that polls
/// it, or many of them, would spend the machine on the same bytes. With the stamp read per
/// request (SQLite's `data_version`, no I/O; PostgreSQL's ledger revision through
/// `SharedStampReader`) a cached answer is never stale: any commit, from this server, another
/// server on the same database or the CLI, changes the stamp.
final class ReportCache: Sendable {
  struct Entry: Sendable {
    var stamp: Int64
    var body: ByteBuffer
    /// A strong ETag: a hash of exactly these bytes.
    var etag: String
  }

  private let entries = Mutex<[String: Entry]>([:])
  /// Bound on months × todays kept (each a few kilobytes).
  let capacity: Int

  init(capacity: Int = 256) { self.capacity = capacity }

  func entry(key: String, stamp: Int64) -> Entry? {
    entries.withLock { $0[key] }.flatMap { $0.stamp == stamp ? $0 : nil }
  }

  func store(key: String, stamp: Int64, json: String) -> Entry {
    let bytes = Array(json.utf8)
    let digest = SHA256Hex.of(bytes).prefix(32)
    let entry = Entry(stamp: stamp, body: ByteBuffer(bytes: bytes), etag: "\"\(digest)\"")
    entries.withLock { entries in
      if entries.count >= capacity { entries.removeAll() }
      entries[key] = entry
    }
    return entry
  }
}
