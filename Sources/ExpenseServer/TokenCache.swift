import ExpenseStore
import Foundation
import Synchronization

/// Token look-ups by hash, remembered for a second.
///
/// Why: the report endpoint aims at 10,000 requests a second, and a database read per request
/// for the same few tokens would be most of the work. A token revoked or expired (by the CLI,
/// in another process) is refused at most `lifetime` later.
final class TokenCache: Sendable {
  struct Entry {
    var token: APIToken?
    /// `token.expiresAt` parsed once: formatting or parsing a date per request would cost more
    /// than the rest of the request (ICU on Linux).
    var expiry: Date?
    var fetched: UInt64
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

  func entry(hash: String) async throws -> Entry {
    let now = DispatchTime.now().uptimeNanoseconds
    if let entry = entries.withLock({ $0[hash] }), now - entry.fetched < lifetime { return entry }
    let token = try await lookup(hash)
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
