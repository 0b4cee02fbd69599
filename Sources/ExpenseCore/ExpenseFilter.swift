import Foundation

/// What `list --search` keeps of the rows a query reads: text anywhere in the description,
/// category or account (case- and accent-insensitive: "cafe" finds "CAFÉ MÜLLER"), and an
/// amount between `min` and `max` (the size of the amount, spent or received, in the row's own
/// currency: `--min 50` is 50 dollars of a dollar row and 50 yen of a yen row).
///
/// Why pure code over the store's rows and not each store's SQL: one meaning of "matches" for
/// every store. Why fast: a bank's text is almost all ASCII, searched byte by byte against the
/// folded needle without making a `String`; a text with other bytes is folded (`TextFold`, the
/// same folding as the needle's) and its bytes searched for the needle's: the folded text
/// holds the folded needle, scalar for scalar.
public struct ExpenseFilter: Sendable, Equatable {
  /// The folded text to find; nil finds every row.
  public let text: String?
  public let min: AmountBound?
  public let max: AmountBound?
  /// `text`'s bytes when it folded to ASCII (lower-case): the byte search's needle.
  let asciiNeedle: [UInt8]?
  /// `text`'s UTF-8, searched for in a folded text.
  let needle: [UInt8]?

  public init(text: String?, min: AmountBound? = nil, max: AmountBound? = nil) {
    let folded = text.map(ExpenseFilter.fold).flatMap { $0.isEmpty ? nil : $0 }
    self.text = folded
    self.min = min
    self.max = max
    self.asciiNeedle = folded.flatMap { $0.utf8.allSatisfy { $0 < 0x80 } ? Array($0.utf8) : nil }
    self.needle = folded.map { Array($0.utf8) }
  }

  /// The text when it folded to ASCII: what an ASCII text's lower-case must hold.
  public var asciiNeedleText: String? { asciiNeedle.map { String(decoding: $0, as: UTF8.self) } }

  /// Whether the filter keeps every row.
  public var isEmpty: Bool { text == nil && min == nil && max == nil }

  /// Case and accents folded away, as both sides of a search are compared.
  public static func fold(_ text: String) -> String {
    TextFold.fold(text).trimmingCharacters(in: .whitespaces)
  }

  /// Whether the row's amount is within `min` and `max`.
  func withinBounds(_ amount: Money) -> Bool {
    if let min, min.compare(amount) == .greater { return false }
    if let max, max.compare(amount) == .less { return false }
    return true
  }

  public func matches(_ row: ExpenseRow) -> Bool {
    guard withinBounds(row.amount) else { return false }
    guard text != nil else { return true }
    return contains(row.description) || row.category.map(contains) == true || row.account.map(contains) == true
  }

  /// Whether `text` holds the filter's text (a row passes when its description, category or
  /// account does): what a store may test once per distinct text.
  public func contains(text: String) -> Bool {
    var copy = text
    return copy.withUTF8 { contains($0) }
  }

  /// Whether `bytes` (UTF-8) hold the text.
  ///
  /// ASCII folds to ASCII, so an ASCII text never holds a needle that is not. A text is not
  /// trimmed as the needle is: the needle starts and ends with no space, so no match of it
  /// can take in the text's outer spaces.
  func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let needle else { return true }
    if bytes.allSatisfy({ $0 < 0x80 }) {
      guard let asciiNeedle else { return false }
      return ExpenseFilter.asciiContains(bytes, asciiNeedle)
    }
    var folded: [UInt8] = []
    folded.reserveCapacity(bytes.count)
    TextFold.append(bytes, to: &folded)
    return folded.withUnsafeBufferPointer { ExpenseFilter.bytesContain($0, needle) }
  }

  /// Whether `haystack` holds `needle`, byte for byte.
  public static func bytesContain(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
    let n = needle.count
    guard n > 0 else { return true }
    guard haystack.count >= n else { return false }
    let first = needle[0]
    for start in 0...(haystack.count - n) where haystack[start] == first {
      var matched = 1
      while matched < n && haystack[start + matched] == needle[matched] { matched += 1 }
      if matched == n { return true }
    }
    return false
  }

  /// A case-insensitive search of ASCII bytes for a lower-case ASCII needle.
  public static func asciiContains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
    let n = needle.count
    guard n > 0 else { return true }
    guard haystack.count >= n else { return false }
    let first = needle[0]
    var start = 0
    let last = haystack.count - n
    while start <= last {
      var byte = haystack[start]
      if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
      if byte == first {
        var matched = 1
        while matched < n {
          var other = haystack[start + matched]
          if other >= 0x41 && other <= 0x5A { other |= 0x20 }
          if other != needle[matched] { break }
          matched += 1
        }
        if matched == n { return true }
      }
      start += 1
    }
    return false
  }
}

/// A typed amount to compare rows with, in whichever currency each row is: the digits typed
/// and how many were after the decimal mark ("12.50": 1250 and 2), compared in 128 bits.
public struct AmountBound: Sendable, Equatable {
  /// Up to 15 whole digits and 9 decimals: 24 digits, past `Int64`, well within `Int128`.
  public let digits: Int128
  public let scale: Int

  /// "50", "12.5", "0.99"; nil for anything else (a sign, a letter, more than 15 whole digits
  /// or 9 decimals: the API's pattern for `min` and `max`).
  public init?(_ text: String) {
    let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty,
      whole.allSatisfy(\.isASCII), whole.allSatisfy(\.isNumber)
    else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard whole.count <= 15, fraction.count <= 9, fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
      parts.count == 1 || !fraction.isEmpty, let value = Int128(whole + fraction)
    else { return nil }
    digits = value
    scale = fraction.count
  }

  public enum Order { case less, same, greater }

  /// The bound against the size of `amount`: `.greater` when the bound is more.
  public func compare(_ amount: Money) -> Order {
    var power: Int128 = 1
    for _ in 0..<amount.currency.minorUnits { power *= 10 }
    var rowPower: Int128 = 1
    for _ in 0..<scale { rowPower *= 10 }
    let bound = digits * power
    let size = Int128(amount.minor.magnitude) * rowPower
    return bound < size ? .less : bound > size ? .greater : .same
  }
}

/// An `ExpenseFilter` at work over one listing: the same answers, with the verdict on each
/// distinct text that is not ASCII kept (a bank repeats its payees: a lookup is a hash,
/// cheaper than folding the text again), at most `capacity` of them, so memory stays flat.
public struct ExpenseMatcher {
  public let filter: ExpenseFilter
  var verdicts: [Int: [(bytes: [UInt8], found: Bool)]] = [:]
  var kept = 0
  static let capacity = 100_000

  public init(_ filter: ExpenseFilter) { self.filter = filter }

  public mutating func matches(_ row: ExpenseRow) -> Bool {
    guard filter.withinBounds(row.amount) else { return false }
    guard filter.text != nil else { return true }
    if contains(row.description) { return true }
    if let category = row.category, contains(category) { return true }
    if let account = row.account, contains(account) { return true }
    return false
  }

  mutating func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if bytes.allSatisfy({ $0 < 0x80 }) { return filter.contains(bytes) }
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    let key = hasher.finalize()
    if let known = verdicts[key]?.first(where: { $0.bytes.elementsEqual(bytes) }) { return known.found }
    let found = filter.contains(bytes)
    if kept < ExpenseMatcher.capacity {
      verdicts[key, default: []].append((Array(bytes), found))
      kept += 1
    }
    return found
  }
}
