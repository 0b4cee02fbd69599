/// How long a field and a record of a bank file may be.
///
/// Why: a bank export's longest cell is a memo of a few hundred bytes. A longer one is a damaged
/// file, a quote that is never closed, or not a bank export at all; stored, it would make every
/// later `list` and report carry it (a 2 MiB description was stored as is, and a 200 MB field took
/// 865 MB of memory to read). Both limits are checked per record and per refill of the reader's
/// buffer, never per byte, so the import's hot loop is unchanged.
public enum ImportLimits {
  /// The longest field, in bytes as the file has them (64 KiB, the import issue's limit: far
  /// above any memo a bank writes): a longer one makes its row bad (exit 65, or skipped with
  /// `--skip-invalid`).
  public static let maxFieldBytes = 64 << 10
  /// The longest record the reader keeps in memory (1 MiB): past it the record's bytes are
  /// dropped as they are read, the reader goes on to the record's end, and the record is bad.
  public static let maxRecordBytes = 1 << 20

  /// `bytes` as a short size for messages: `4 KiB`, `1 MiB`, `1234 bytes`.
  static func size(_ bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }

  /// The start of a too-long value, shortened for a message.
  static func shortened(_ bytes: UnsafeBufferPointer<UInt8>, total: Int) -> String {
    let prefix = String(decoding: UnsafeBufferPointer(rebasing: bytes.prefix(48)), as: UTF8.self)
    return prefix + "… (\(total) bytes)"
  }
}
