import ExpenseCore
import ExpenseStore
import Foundation
import PostgresNIO

/// Idempotency-Keys shared by every server on the database: a key runs once.
///
/// How: `runOnce` is one transaction that first takes a transaction-level advisory lock on the
/// key without waiting (`pg_try_advisory_xact_lock`): when another session holds it, that
/// session is running the key, and the answer is `.running` at once (the API's 409) rather
/// than a wait behind the whole import. Then it inserts the key (`INSERT … ON CONFLICT DO
/// NOTHING`, status 0 for "running"): a conflict means the key finished before, and its stored
/// answer is returned. Otherwise `body` runs inside the same transaction (its writes are a
/// savepoint of it) and the answer replaces the placeholder before the one `COMMIT`. So the
/// import and its stored answer commit together or not at all: a server killed halfway loses
/// its connection, PostgreSQL rolls the transaction back and drops the lock, and a retry on
/// any other server runs the key afresh. The unique key is the last guard: two transactions
/// that both held "the" lock (a hash collision cannot make that happen, only a spurious 409)
/// could still not both commit one key.
extension PostgresStore {
  public func idempotentResponse(token: String, key: String) throws -> IdempotentResponse? {
    try read { connection in try storedResponse(connection, token: token, key: key) }
  }

  func storedResponse(_ connection: BlockingConnection, token: String, key: String) throws -> IdempotentResponse? {
    try connection.query(
      """
      SELECT request_hash, status, body FROM idempotency_key
      WHERE ledger_id = \(ledger) AND token = \(token) AND key = \(key) AND status <> 0
      """
    ).first.map { row in
      let (hash, status, body) = try row.decode((String, Int32, ByteBuffer).self)
      return IdempotentResponse(requestHash: hash, status: Int(status), body: Data(body.readableBytesView))
    }
  }

  /// Stores the first answer for `key`: over `runOnce`'s placeholder, never over an answer.
  public func saveIdempotentResponse(_ response: IdempotentResponse, token: String, key: String, at time: String)
    throws
  {
    try write { connection in
      try connection.query(
        """
        INSERT INTO idempotency_key AS k (ledger_id, token, key, request_hash, status, body, created_at)
        VALUES (\(ledger), \(token), \(key), \(response.requestHash), \(Int32(clamping: response.status)),
                \(ByteBuffer(bytes: response.body)), \(time))
        ON CONFLICT (ledger_id, token, key) DO UPDATE
        SET request_hash = excluded.request_hash, status = excluded.status, body = excluded.body
        WHERE k.status = 0
        """)
    }
  }

  public func runOnce(
    token: String, key: String, requestHash: String, at time: String, _ body: () throws -> IdempotentResponse
  ) throws -> IdempotentOutcome {
    try read { connection in
      try connection.execute("BEGIN")
      do {
        let outcome = try runOnce(connection, token: token, key: key, requestHash: requestHash, at: time, body)
        if case .ran = outcome {
          try connection.execute("COMMIT")
        } else {
          try connection.execute("ROLLBACK")
        }
        return outcome
      } catch {
        try? connection.execute("ROLLBACK")
        throw error
      }
    }
  }

  private func runOnce(
    _ connection: BlockingConnection, token: String, key: String, requestHash: String, at time: String,
    _ body: () throws -> IdempotentResponse
  ) throws -> IdempotentOutcome {
    // The lock's key: the ledger, the token and the key, hashed to 64 bits by the server; the
    // token's length first, so no two (token, key) pairs make one text.
    let name = "\(token.utf8.count):\(token)\(key)"
    let locked = try connection.query("SELECT pg_try_advisory_xact_lock(hashtextextended(\(name), \(ledger)))")
    guard try locked.first?.decode(Bool.self) == true else { return .running }
    try connection.query("SELECT 1 FROM ledger WHERE id = \(ledger) FOR UPDATE")
    let inserted = try connection.query(
      """
      INSERT INTO idempotency_key (ledger_id, token, key, request_hash, status, body, created_at)
      VALUES (\(ledger), \(token), \(key), \(requestHash), 0, ''::bytea, \(time))
      ON CONFLICT (ledger_id, token, key) DO NOTHING
      """)
    guard (inserted.metadata.rows ?? 0) == 1 else {
      return try storedResponse(connection, token: token, key: key).map { .stored($0) } ?? .running
    }
    let response = try nested(body)
    guard response.status != 0 else {
      throw StoreError.io(path: location.redacted, detail: "an idempotent answer must have an HTTP status")
    }
    try connection.query(
      """
      UPDATE idempotency_key
      SET request_hash = \(response.requestHash), status = \(Int32(clamping: response.status)),
          body = \(ByteBuffer(bytes: response.body))
      WHERE ledger_id = \(ledger) AND token = \(token) AND key = \(key)
      """)
    return .ran(response)
  }
}
