import ExpenseStore
import Foundation
import Synchronization

/// Token look-ups by hash, remembered for a second.
///
/// Why: the report endpoint aims at 10,000 requests a second, and a database read per request
/// for the same few tokens would be most of the work. A token revoked or expired (by the CLI,
/// in another process) is refused about `lifetime` later (one refresh after that).
final class TokenCache: Sendable {
  struct Entry {
    var token: APIToken?
    /// `token.expiresAt` parsed once: formatting or parsing a date per request would cost more
    /// than the rest of the request (ICU on Linux).
    var expiry: Date?
    var fetched: UInt64
    /// A refresh of this entry is under way (one at a time, whatever the number of requests).
    var refreshing = false
  }

  private let entries = Mutex<[String: Entry]>([:])
  private let lifetime: UInt64
  private let lookup: @Sendable (String) async throws -> APIToken?

  init(lifetimeNanoseconds: UInt64 = 1_000_000_000, lookup: @escaping @Sendable (String) async throws -> APIToken?) {
    lifetime = lifetimeNanoseconds
    self.lookup = lookup
  }

  /// The token stored under this hash if it is valid at `now` (not revoked, not expired).
  func validToken(hash: String, now: Date) async throws -> APIToken? {
    let entry = try await entry(hash: hash)
    guard let token = entry.token, token.revokedAt == nil else { return nil }
    if let expiry = entry.expiry, now >= expiry { return nil }
    return token
  }

  /// A known hash is answered from memory at once; when its entry is older than `lifetime`,
  /// one request starts a refresh in the background and all go on with the entry they have.
  /// Why not wait for it: when the second is up, every connection's next request would miss at
  /// once and queue a database read, and a read can be slow while a large import commits.
  func entry(hash: String) async throws -> Entry {
    let now = DispatchTime.now().uptimeNanoseconds
    let (cached, refresh) = entries.withLock { entries -> (Entry?, Bool) in
      guard var entry = entries[hash] else { return (nil, false) }
      if now - entry.fetched < lifetime || entry.refreshing { return (entry, false) }
      entry.refreshing = true
      entries[hash] = entry
      return (entry, true)
    }
    if let cached {
      if refresh { Task { _ = try? await self.fetch(hash: hash) } }
      return cached
    }
    return try await fetch(hash: hash)
  }

  private func fetch(hash: String) async throws -> Entry {
    let now = DispatchTime.now().uptimeNanoseconds
    let token: APIToken?
    do { token = try await lookup(hash) } catch {
      entries.withLock { $0[hash]?.refreshing = false }
      throw error
    }
    let expiry = token?.expiresAt.map { text in
      // An unreadable expiry counts as expired.
      ISO8601DateFormatter().date(from: text) ?? .distantPast
    }
    let entry = Entry(token: token, expiry: expiry, fetched: now)
    entries.withLock { entries in
      // Unknown hashes are remembered too (a client retrying a bad token), within a bound.
      if entries.count > 10_000 { entries.removeAll() }
      entries[hash] = entry
    }
    return entry
  }
}
