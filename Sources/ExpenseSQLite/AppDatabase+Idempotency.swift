import ExpenseStore
import Foundation
import GRDB

extension AppDatabase {
  /// The answer stored for `key` of `token`, if any.
  public func idempotentResponse(token: String, key: String) throws(StoreError) -> IdempotentResponse? {
    try read { db in
      try Row.fetchOne(
        db, sql: "SELECT requestHash, status, body FROM idempotencyKey WHERE token = ? AND key = ?",
        arguments: [token, key]
      ).map { IdempotentResponse(requestHash: $0["requestHash"], status: $0["status"], body: $0["body"]) }
    }
  }

  /// Stores the first answer for `key` (a later one for the same key is ignored).
  public func saveIdempotentResponse(_ response: IdempotentResponse, token: String, key: String, at time: String)
    throws
  {
    try write { db in
      try db.execute(
        sql: """
          INSERT INTO idempotencyKey (token, key, requestHash, status, body, createdAt) VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (token, key) DO NOTHING
          """,
        arguments: [token, key, response.requestHash, response.status, response.body, time])
    }
  }
}
