/// The parts of the split transaction an import is reading (`ImportedRow.splitGroup`), one set
/// at a time: a split's parts come one after the other in file order, so a set is complete when
/// the next begins, and memory stays flat in the file's size. Each store's import writer saves
/// the sets this hands back.
public struct SplitSets: Sendable {
  /// One split transaction's new parts, to be stored together.
  public struct Set: Sendable, Equatable {
    /// The set's id: its first part's.
    public var id: Int64
    public var parts: [Int64]
  }

  private var group = 0
  private var parts: [Int64] = []

  public init() {}

  /// Adds the new expense `id`, a part of split `group`; returns the set that ended before it
  /// when `group` begins a new one.
  public mutating func add(group: Int, id: Int64) -> Set? {
    let ended = group != self.group ? finish() : nil
    self.group = group
    parts.append(id)
    return ended
  }

  /// Ends the set being read and returns it. A set is the parts this import added: when all
  /// but one part were stored already (duplicates), the one left is an ordinary row, there
  /// being nothing to keep it together with, and `nil` is returned.
  public mutating func finish() -> Set? {
    defer {
      parts.removeAll(keepingCapacity: true)
      group = 0
    }
    guard parts.count > 1, let first = parts.min() else { return nil }
    return Set(id: first, parts: parts)
  }
}
