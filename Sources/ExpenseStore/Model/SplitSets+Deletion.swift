extension SplitSets {
  /// The ids a delete of `ids` removes: each once, in the order named, then the other parts of
  /// the split transactions named (`parts(id)`: the ids of the split `id` is a part of, nil for
  /// an ordinary row) when `wholeSplits`. A part of a split goes only with all its parts:
  /// without `wholeSplits` a split named in part is refused (`StoreError.splitPart`). Every
  /// store's `deleteExpenses` decides by this.
  public static func deletion(
    of ids: [Int64], wholeSplits: Bool, parts: (Int64) throws -> [Int64]?
  ) throws -> [Int64] {
    var seen = Swift.Set<Int64>()
    let named = ids.filter { seen.insert($0).inserted }
    var added: [Int64] = []
    for id in named {
      guard let split = try parts(id) else { continue }
      for part in split where !seen.contains(part) {
        guard wholeSplits else { throw StoreError.splitPart(id: id, parts: split, change: .delete) }
        seen.insert(part)
        added.append(part)
      }
    }
    return named + added
  }
}
