import ExpenseStore
import Foundation
import Synchronization

/// Token look-ups by hash, remembered while the database is unchanged.
///
/// Why: the report endpoint aims at 10,000 requests a second, and a database read per request
/// for the same few tokens would be most of the work. Each request reads the directory's change
/// stamp instead (SQLite's `data_version` of the main file on a connection of its own: no I/O;
/// PostgreSQL's directory revision, one shared read: `SharedStampReader`), which changes with
/// every commit to tokens, users, memberships or ledgers by any connection or process, and an entry is trusted only while the stamp it was read under
/// is the current one. So a token revoked or created by the CLI, or by another server on the
/// same database, is seen on the very next request, and expiry is compared with the clock on
/// every request.
final class TokenCache: Sendable {
  struct Entry {
    var token: APIToken?
    /// `token.expiresAt` parsed once: formatting or parsing a date per request would cost more
    /// than the rest of the request (ICU on Linux).
    var expiry: Date?
    /// The change stamp this entry was read under.
    var stamp: Int64
  }

  private let entries = Mutex<[String: Entry]>([:])
  private let stamp: @Sendable () async throws -> Int64
  private let lookup: @Sendable (String) async throws -> APIToken?

  /// `stamp` changes whenever anything is committed; `lookup` reads a token by hash.
  init(
    stamp: @escaping @Sendable () async throws -> Int64, lookup: @escaping @Sendable (String) async throws -> APIToken?
  ) {
    self.stamp = stamp
    self.lookup = lookup
  }

  /// The change stamp as of now (read after this call began).
  func currentStamp() async throws -> Int64 { try await stamp() }

  /// The token stored under this hash if it is valid at `now` (not revoked, not expired).
  func validToken(hash: String, now: Date) async throws -> APIToken? {
    try await validToken(hash: hash, now: now, stamp: try await stamp())
  }

  /// The same, checked against `stamp`, a stamp read after the request arrived.
  func validToken(hash: String, now: Date, stamp: Int64) async throws -> APIToken? {
    let entry = try await entry(hash: hash, stamp: stamp)
    guard let token = entry.token, token.revokedAt == nil else { return nil }
    if let expiry = entry.expiry, now >= expiry { return nil }
    return token
  }

  /// The cached entry while the stamp is unchanged, else a fresh read. The stamp was read first:
  /// the read that follows sees at least every commit the stamp counts.
  func entry(hash: String, stamp current: Int64) async throws -> Entry {
    if let cached = entries.withLock({ $0[hash] }), cached.stamp == current { return cached }
    let token = try await lookup(hash)
    let expiry = token?.expiresAt.map { text in
      // An unreadable expiry counts as expired.
      ISO8601DateFormatter().date(from: text) ?? .distantPast
    }
    let entry = Entry(token: token, expiry: expiry, stamp: current)
    entries.withLock { entries in
      // Unknown hashes are remembered too (a client retrying a bad token), within a bound.
      if entries.count > 10_000 { entries.removeAll() }
      entries[hash] = entry
    }
    return entry
  }
}
