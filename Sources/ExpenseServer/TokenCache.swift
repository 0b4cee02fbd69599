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
    var fetched: UInt64
  }

  private let entries = Mutex<[String: Entry]>([:])
  private let lifetime: UInt64
  private let lookup: @Sendable (String) async throws -> APIToken?

  init(lifetimeNanoseconds: UInt64 = 1_000_000_000, lookup: @escaping @Sendable (String) async throws -> APIToken?) {
    lifetime = lifetimeNanoseconds
    self.lookup = lookup
  }

  /// The token stored under this hash (valid or not), or nil.
  func token(hash: String) async throws -> APIToken? {
    let now = DispatchTime.now().uptimeNanoseconds
    if let entry = entries.withLock({ $0[hash] }), now - entry.fetched < lifetime { return entry.token }
    let token = try await lookup(hash)
    entries.withLock { entries in
      // Unknown hashes are remembered too (a client retrying a bad token), within a bound.
      if entries.count > 10_000 { entries.removeAll() }
      entries[hash] = Entry(token: token, fetched: now)
    }
    return token
  }
}
