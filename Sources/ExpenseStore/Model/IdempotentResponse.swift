import Foundation

/// The first answer to a request sent with an `Idempotency-Key`.
public struct IdempotentResponse: Hashable, Sendable {
  /// A hash of what was asked (method, path, query, body): the same key with another request is
  /// refused rather than answered with an unrelated result.
  public var requestHash: String
  public var status: Int
  public var body: Data

  public init(requestHash: String, status: Int, body: Data) {
    self.requestHash = requestHash
    self.status = status
    self.body = body
  }
}
