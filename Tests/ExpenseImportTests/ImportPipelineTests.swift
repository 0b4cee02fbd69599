import ExpenseImport
import Foundation
import Testing

@Suite struct ImportPipelineTests {
  struct Boom: Error, Equatable {}

  /// Every item arrives once, in order, across many chunks and a full queue.
  @Test func deliversEverythingInOrder() throws {
    let pipeline = ImportPipeline<Int>(chunkSize: 7, depth: 2)
    pipeline.start { emit in
      for i in 0..<10_000 { try emit(i) }
    }
    defer { pipeline.finish() }
    var received: [Int] = []
    while let chunk = try pipeline.next() { received += chunk }
    #expect(received == Array(0..<10_000))
  }

  /// The producer's error comes after the items emitted before it, not before.
  @Test func errorFollowsTheItemsBeforeIt() throws {
    let pipeline = ImportPipeline<Int>(chunkSize: 4, depth: 1)
    pipeline.start { emit in
      for i in 0..<10 { try emit(i) }
      throw Boom()
    }
    defer { pipeline.finish() }
    var received: [Int] = []
    #expect(throws: Boom.self) {
      while let chunk = try pipeline.next() { received += chunk }
    }
    #expect(received == Array(0..<10))
  }

  /// A consumer that stops early (an SQLite error, say) stops the producer, which was blocked
  /// on a full queue, and `finish` returns once its thread has ended.
  @Test func finishStopsABlockedProducer() throws {
    let stopped = LockedFlag()
    let pipeline = ImportPipeline<Int>(chunkSize: 1, depth: 1)
    pipeline.start { emit in
      do {
        for i in 0..<1_000_000 { try emit(i) }
      } catch {
        stopped.set(error is ImportPipeline<Int>.Cancelled)
        throw error
      }
    }
    #expect(try pipeline.next() == [0])
    pipeline.finish()
    pipeline.finish()  // a second call is harmless
    #expect(stopped.value)
  }
}

/// A flag written by the producer thread and read by the test after `finish` joined it.
final class LockedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = false
  var value: Bool { lock.withLock { stored } }
  func set(_ value: Bool) { lock.withLock { stored = value } }
}
