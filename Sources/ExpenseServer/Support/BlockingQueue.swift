import Dispatch

/// Runs blocking work (SQLite calls, an import) on a dispatch queue instead of the Swift
/// concurrency pool, which has one thread per core: two threads on this machine, which a long
/// import must not take from the requests.
struct BlockingQueue: Sendable {
  let queue: DispatchQueue

  /// `serial`: one job at a time (the writer); else as many as there are waiting jobs (readers).
  init(label: String, serial: Bool) {
    queue = serial ? DispatchQueue(label: label) : DispatchQueue(label: label, attributes: .concurrent)
  }

  func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      queue.async { continuation.resume(with: Result(catching: body)) }
    }
  }
}
