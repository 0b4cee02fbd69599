/// Progress of a running import.
public struct ImportProgress: Sendable {
  /// Bytes of the file read so far.
  public var bytesRead: Int64
  /// The file size when known.
  public var totalBytes: Int64?
  /// Records processed so far.
  public var rows: Int
}
