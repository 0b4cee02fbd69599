/// What `rules apply` did, or would do with `--dry-run`.
public struct RulesApplyResult: Hashable, Sendable {
  /// Rows whose category changes.
  public var changed: Int
  /// Rows changed, by the category they move to.
  public var byCategory: [String: Int]

  public init(changed: Int, byCategory: [String: Int]) {
    self.changed = changed
    self.byCategory = byCategory
  }
}
