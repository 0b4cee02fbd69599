import ExpenseCore
import ExpenseStore
import Foundation

/// A `LedgerStore` that keeps everything in this process's memory: the third store, for tests
/// (a handler or service test that needs no disk) and the proof that a store costs storage,
/// not policy. It passes the same contract suite as the SQLite file and PostgreSQL
/// (`StoreContractTests`); every rule about what the rows mean (budget spellings, rules, split
/// parts, the monthly sums) comes from `ExpenseStore` and the service, as for them.
///
/// How it keeps the guarantees: one recursive lock around one value (`MemoryLedger`). A write
/// changes the value in place and puts back the value it saved if it throws, so it is all or
/// nothing; `atomically` does the same around its body, and `consistently` holds the lock, so
/// its reads see one state. Nothing survives the process: `filePath` is nil and a backup is
/// refused.
public final class MemoryStore: LedgerStore, @unchecked Sendable {
  private let lock = NSRecursiveLock()
  /// Read and changed only with `lock` held (the import's writer runs inside `importRows`,
  /// which holds it).
  var state = MemoryLedger()

  public init() {}

  public var filePath: String? { nil }

  /// The version of what this store keeps: its data lives as long as the process, so there is
  /// never an older version to read.
  public var schemaVersion: Int { 1 }

  /// How errors name this store where a file store names its path.
  static let name = "memory"

  /// `body` over the current state, alone.
  func read<T>(_ body: (MemoryLedger) throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(state)
  }

  /// `body` changing the state, alone: kept whole (and the revision raised) when it returns and
  /// `keep` holds, else the state before is put back.
  func write<T>(keep: Bool = true, _ body: (inout MemoryLedger) throws -> T) throws -> T {
    try transaction(keep: keep) { try body(&state) }
  }

  /// `body`, which changes `state` (directly, or through the store's own calls), alone: kept
  /// when it returns and `keep` holds, else the state before is put back. (The import's writer
  /// changes `state` through this, not `write`: an `inout` access would exclude it.)
  func transaction<T>(keep: Bool = true, _ body: () throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    let saved = state
    do {
      let value = try body()
      if keep { state.revision += 1 } else { state = saved }
      return value
    } catch {
      state = saved
      throw error
    }
  }

  public func atomically<T>(_ body: () throws -> T) throws -> T { try transaction(body) }

  public func consistently<T>(_ body: () throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  public func revision() throws -> Int64 { try read { $0.revision } }
  public func changeStamp() throws -> Int64 { try revision() }
  public func directoryStamp() throws -> Int64 { try revision() }
}
