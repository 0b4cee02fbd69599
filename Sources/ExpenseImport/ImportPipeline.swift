import Foundation

/// Runs a producer (reading and parsing a file) on its own thread and hands what it emits to
/// the calling thread in chunks, through a small bounded queue.
///
/// Why: an import is two CPU-bound halves, parsing and storing (SQLite), and each is about half
/// of the time. On a machine with two cores they overlap, so the wall time is the longer half
/// rather than the sum. The queue holds at most `depth` chunks, so memory stays bounded whatever
/// the size of the file, and order is kept: the consumer sees items exactly as emitted, then the
/// producer's error, if any, after the items emitted before it.
///
/// `Item`s cross threads only through the lock; they are values (an `ImportEvent` and what the
/// caller adds to it), which is why the class can promise `Sendable` by hand.
public final class ImportPipeline<Item>: @unchecked Sendable {
  /// Why the producer's `emit` stops it early: the consumer called `finish` before the end.
  public struct Cancelled: Error {}

  private let condition = NSCondition()
  private var queue: [[Item]] = []
  /// Chunks the consumer is done with (`giveBack`), freed by the producer.
  private var returned: [[Item]] = []
  private var producerDone = false
  private var producerError: (any Error)?
  private var cancelled = false
  private var started = false
  private var joined = false
  private let ended = DispatchSemaphore(value: 0)
  private let depth: Int
  private let chunkSize: Int

  public init(chunkSize: Int = 4096, depth: Int = 4) {
    self.chunkSize = max(1, chunkSize)
    self.depth = max(1, depth)
  }

  /// Starts `produce` on a new thread. It calls `emit` for every item; `emit` throws
  /// `Cancelled` once the consumer has given up, which should end `produce` promptly.
  public func start(_ produce: @escaping @Sendable (_ emit: (Item) throws -> Void) throws -> Void) {
    condition.lock()
    precondition(!started, "an ImportPipeline runs once")
    started = true
    condition.unlock()
    let thread = Thread { [self] in
      var chunk: [Item] = []
      chunk.reserveCapacity(chunkSize)
      var failure: (any Error)?
      do {
        try produce { item in
          chunk.append(item)
          if chunk.count == self.chunkSize {
            try self.push(chunk)
            chunk.removeAll(keepingCapacity: true)
          }
        }
        if !chunk.isEmpty { try push(chunk) }
      } catch {
        if !(error is Cancelled) {
          if !chunk.isEmpty { try? push(chunk) }
          failure = error
        }
      }
      condition.lock()
      producerDone = true
      producerError = failure
      condition.broadcast()
      condition.unlock()
      ended.signal()
    }
    thread.stackSize = 8 << 20
    thread.name = "expenses-import-parse"
    thread.start()
  }

  /// Waits for room in the queue, then appends a chunk.
  private func push(_ chunk: [Item]) throws {
    condition.lock()
    defer { condition.unlock() }
    while queue.count >= depth && !cancelled { condition.wait() }
    if cancelled { throw Cancelled() }
    queue.append(chunk)
    // What the consumer gave back ends here, on the producer's thread (see `giveBack`).
    let ended = returned
    returned = []
    condition.broadcast()
    _ = ended
  }

  /// Hands a chunk the consumer is done with back to the producer's thread, which frees it on
  /// its next push: the texts of its rows were made there, and freeing them on the consumer's
  /// thread (a release of each text, and glibc's free of memory another thread allocated) cost
  /// the writer of a million-row import about 3%.
  public func giveBack(_ chunk: [Item]) {
    condition.lock()
    defer { condition.unlock() }
    if !cancelled { returned.append(chunk) }
  }

  /// The next chunk in order, or `nil` once the producer has finished. Throws the producer's
  /// error after the chunks emitted before it.
  public func next() throws -> [Item]? {
    condition.lock()
    defer { condition.unlock() }
    while queue.isEmpty && !producerDone { condition.wait() }
    if !queue.isEmpty {
      let chunk = queue.removeFirst()
      condition.broadcast()
      return chunk
    }
    if let producerError {
      self.producerError = nil
      throw producerError
    }
    return nil
  }

  /// Stops the producer if it is still running and waits for its thread to end. Call it once
  /// the consumer is done, on success or failure (a `defer` right after `start`).
  public func finish() {
    condition.lock()
    let mustJoin = started && !joined
    joined = true
    cancelled = true
    queue.removeAll()
    returned.removeAll()
    condition.broadcast()
    condition.unlock()
    if mustJoin { ended.wait() }
  }
}
