/// What `LedgerStore.runOnce` did with an Idempotency-Key.
public enum IdempotentOutcome: Sendable, Equatable {
  /// This call ran the work; its answer is stored with what it wrote.
  case ran(IdempotentResponse)
  /// The key had finished before: its stored answer (the caller compares `requestHash`).
  case stored(IdempotentResponse)
  /// Another caller is running the key right now (the API's 409).
  case running
}
