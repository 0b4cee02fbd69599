#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes bytes to a raw file descriptor until every one is written: the one loop that retries
/// short writes and `EINTR`, used by the CLI's output files, the service's `OutputFile`, the
/// store's file copies and the server's upload files.
///
/// It lives in a module of its own because its callers sit at every level (ExpenseStore,
/// ExpenseService, ExpenseServer, the executable), and the one module below them all,
/// ExpenseCore, holds the domain and does no I/O by design.
public enum FileDescriptorWriter {
  /// Writes every byte of `bytes` to `fd`, retrying short writes and `EINTR`; returns the
  /// `errno` of the write that failed, else nil. Each caller turns the code into its own error.
  public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    guard let base = bytes.baseAddress else { return nil }
    let total = bytes.count
    var written = 0
    while written < total {
      let n = write(fd, base + written, total - written)
      if n < 0 {
        if errno == EINTR { continue }
        return errno
      }
      written += n
    }
    return nil
  }

  /// The first `count` bytes of `bytes` (all of them when nil) written as `writeAll` does.
  public static func writeAll(_ fd: Int32, _ bytes: [UInt8], count: Int? = nil) -> Int32? {
    let total = min(count ?? bytes.count, bytes.count)
    return bytes.withUnsafeBytes { writeAll(fd, UnsafeRawBufferPointer(rebasing: $0[0..<total])) }
  }

  /// The UTF-8 bytes of `text` written as `writeAll` does.
  public static func writeAll(_ fd: Int32, _ text: String) -> Int32? {
    writeAll(fd, Array(text.utf8))
  }
}
