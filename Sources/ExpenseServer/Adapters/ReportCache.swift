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
///
/// Why a bound in bytes and the least recently used dropped first: one server answers for
/// every ledger of its database, a thousand households or more, each with its users, months
/// and days; a bound on entries would either thrash (emptied every few hundred reports) or let
/// a few large reports grow memory without limit.
final class ReportCache: Sendable {
  struct Entry: Sendable {
    var stamp: Int64
    var body: ByteBuffer
    /// A strong ETag: a hash of exactly these bytes.
    var etag: String
  }

  private struct Kept {
    var entry: Entry
    var lastUse: UInt64
  }

  private struct State {
    var kept: [String: Kept] = [:]
    var bytes = 0
    var tick: UInt64 = 0
  }

  private let state = Mutex(State())
  /// Bound on the bodies' bytes kept (each report a few kilobytes to a few hundred).
  let byteBudget: Int

  init(byteBudget: Int = 64 << 20) { self.byteBudget = byteBudget }

  func entry(key: String, stamp: Int64) -> Entry? {
    state.withLock { state in
      guard var kept = state.kept[key], kept.entry.stamp == stamp else { return nil }
      state.tick &+= 1
      kept.lastUse = state.tick
      state.kept[key] = kept
      return kept.entry
    }
  }

  func store(key: String, stamp: Int64, json: String) -> Entry {
    let bytes = Array(json.utf8)
    let digest = SHA256Hex.of(bytes).prefix(32)
    let entry = Entry(stamp: stamp, body: ByteBuffer(bytes: bytes), etag: "\"\(digest)\"")
    state.withLock { state in
      state.tick &+= 1
      if let old = state.kept.updateValue(Kept(entry: entry, lastUse: state.tick), forKey: key) {
        state.bytes -= old.entry.body.readableBytes
      }
      state.bytes += bytes.count
      if state.bytes > byteBudget { Self.shed(&state, below: byteBudget / 2) }
    }
    return entry
  }

  /// How many reports and bytes are kept (tests).
  var size: (count: Int, bytes: Int) { state.withLock { ($0.kept.count, $0.bytes) } }

  /// Drops the least recently used entries until at most `target` bytes are kept: one sort
  /// for many drops, so a store that passes the budget costs O(log n) an entry.
  private static func shed(_ state: inout State, below target: Int) {
    for (key, kept) in state.kept.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
      if state.bytes <= target { return }
      state.kept[key] = nil
      state.bytes -= kept.entry.body.readableBytes
    }
  }
}
