import Foundation

/// What makes two category names the same category: case, surrounding and repeated spaces and
/// Unicode normalization do not count, so "groceries", " Groceries " and "GROCERIES" are one.
///
/// Why a key in Swift rather than `COLLATE NOCASE`: SQLite's NOCASE folds ASCII only and knows
/// nothing of normalization ("Café" typed with a combining accent is another string), and a
/// collation would have to be declared on every table that names a category. Instead every name
/// is stored in one canonical spelling per category, chosen when it is first written, so every
/// query and the rollup keep comparing plain text.
public enum CategoryName {
  /// The identity of a name: NFC, lower-cased, spaces trimmed and runs of spaces made one.
  public static func key(_ name: String) -> String {
    tidy(name).lowercased()
  }

  /// The spelling to store for a name typed or read for the first time: NFC, spaces trimmed and
  /// runs of spaces made one, case kept. `nil` when nothing is left (no category).
  public static func tidy(_ name: String) -> String {
    let composed = name.precomposedStringWithCanonicalMapping
    var result = ""
    result.reserveCapacity(composed.utf8.count)
    var pendingSpace = false
    for character in composed {
      if character.isWhitespace {
        pendingSpace = !result.isEmpty
      } else {
        if pendingSpace { result.append(" ") }
        pendingSpace = false
        result.append(character)
      }
    }
    return result
  }

  /// Levenshtein distance between two strings, by characters, stopping early above `limit`
  /// (the answer is then `limit + 1`).
  public static func distance(_ a: String, _ b: String, limit: Int) -> Int {
    let a = Array(a)
    let b = Array(b)
    if abs(a.count - b.count) > limit { return limit + 1 }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      current[0] = i
      var rowMinimum = current[0]
      for j in stride(from: 1, through: b.count, by: 1) {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
        rowMinimum = min(rowMinimum, current[j])
      }
      if rowMinimum > limit { return limit + 1 }
      swap(&previous, &current)
    }
    return min(previous[b.count], limit + 1)
  }
}

/// The stored spelling of every known category, by identity key: what a name typed or read from
/// a file becomes before it is stored.
///
/// A value: loaded once per command (a few dozen names) and, during an import, carried to the
/// parse thread, where `ImportBatcher` maps each row's category through a cache of raw spelling
/// to stored spelling, so repeated categories cost one dictionary lookup and no query.
public struct CategoryNames: Sendable {
  /// Stored spelling by key.
  private(set) var byKey: [String: String]
  /// Raw spelling (as read) to stored spelling; `nil` for names that are only spaces.
  private var cache: [String: String?] = [:]

  public init(spellings: [String] = []) {
    byKey = [:]
    for name in spellings where byKey[CategoryName.key(name)] == nil { byKey[CategoryName.key(name)] = name }
  }

  /// The stored spelling for `name`: the known one for its key, else `name` tidied, which then
  /// becomes the known spelling (the first spelling wins). `nil` for nil or blank names.
  public mutating func canonical(_ name: String?) -> String? {
    guard let name else { return nil }
    if let known = cache[name] { return known }
    let tidy = CategoryName.tidy(name)
    var result: String?
    if !tidy.isEmpty {
      let key = tidy.lowercased()
      if let stored = byKey[key] {
        result = stored
      } else {
        byKey[key] = tidy
        result = tidy
      }
    }
    if cache.count < 4096 { cache[name] = result }
    return result
  }

  /// The stored spelling for `name` if its category is known, without learning it.
  public func known(_ name: String) -> String? { byKey[CategoryName.key(name)] }

  /// The known category closest to `name` within an edit distance of 2 (on the keys), for a
  /// "did you mean" hint; `nil` when `name` is itself known or nothing is close. A distance
  /// must also be smaller than the shorter name, so a two-letter name does not suggest every
  /// other two-letter name.
  public func suggestion(for name: String) -> String? {
    let key = CategoryName.key(name)
    guard !key.isEmpty, byKey[key] == nil else { return nil }
    var best: (distance: Int, name: String)?
    for (other, spelling) in byKey {
      let distance = CategoryName.distance(key, other, limit: 2)
      guard distance <= 2, distance < min(key.count, other.count) else { continue }
      if best == nil || distance < best!.distance || (distance == best!.distance && spelling < best!.name) {
        best = (distance, spelling)
      }
    }
    return best?.name
  }
}
