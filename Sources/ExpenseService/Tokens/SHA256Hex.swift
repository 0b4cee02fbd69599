import Crypto

/// Lower-case hexadecimal SHA-256, the one spelling of a digest: token hashes (`TokenHasher`),
/// and the server's report ETags (`ReportCache`) and upload hashes (`ImportUploads`).
public enum SHA256Hex {
  /// The 64 lower-case hex digits of `digest`.
  public static func string(_ digest: SHA256.Digest) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    hex.reserveCapacity(2 * SHA256.Digest.byteCount)
    for byte in digest {
      hex.append(digits[Int(byte >> 4)])
      hex.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: hex, as: UTF8.self)
  }

  /// The hex SHA-256 of `bytes`.
  public static func of(_ bytes: [UInt8]) -> String { string(SHA256.hash(data: bytes)) }
}
