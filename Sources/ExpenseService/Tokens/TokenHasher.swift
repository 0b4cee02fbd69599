import Foundation

/// Makes API tokens and the hash the database keeps of them.
///
/// A token is `exp_` and 32 random bytes in base64url: 256 bits, so a plain SHA-256 (no salt,
/// no slow hash) is enough to make a stolen database useless for logging in, and cheap enough
/// to check on every request.
public enum TokenHasher {
  /// A new random token.
  public static func newToken() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    let base64 = Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    return "exp_" + base64
  }

  /// Lower-case hex SHA-256 of the token's UTF-8 bytes: what `apiToken.hash` holds.
  public static func hash(_ token: String) -> String { SHA256Hex.of(Array(token.utf8)) }
}
