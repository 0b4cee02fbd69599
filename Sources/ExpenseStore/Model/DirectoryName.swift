/// The names of ledgers and users, and the two that every store has.
///
/// Why so strict: a ledger's name is part of a file name in the SQLite store
/// (`NAME.ledgers/LEDGER.sqlite`) and of a URL parameter; a user's name is part of the key
/// their section states are saved under (`USER/SECTION`). Letters, digits, `.`, `_` and `-`,
/// starting with a letter or digit, at most 64 bytes, cannot climb out of a folder, hide in a
/// log line or collide with a separator.
public enum DirectoryName {
  /// The ledger every store has, which a command acts on unless told `--ledger`: the one-file
  /// setup's only ledger.
  public static let defaultLedger = "default"
  /// The user every store has: the person at the terminal, owner of `default`, and whom a
  /// token made without `--user` acts for.
  public static let localUser = "local"

  /// Whether `name` may name a ledger or a user.
  public static func isValid(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard let first = bytes.first, bytes.count <= 64, isLetterOrDigit(first) else { return false }
    return bytes.allSatisfy {
      isLetterOrDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
    }
  }

  private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }
}
