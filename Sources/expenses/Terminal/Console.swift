import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The one way text reaches stdout and stderr: `write(2)` in a loop, never Foundation's
/// `FileHandle.write` (which traps on a full device or a closed pipe).
///
/// A write error is thrown as `Console.Failure`; `main` turns a closed pipe into a quiet end
/// and any other failure into exit 74 with one line on stderr.
enum Console {
  /// A write to stdout or stderr that did not complete.
  struct Failure: Error {
    /// The file descriptor written to.
    var descriptor: Int32
    /// `errno` of the failed write.
    var code: Int32
    /// True for a reader that went away (`report | head -1`): not worth a message.
    var isClosedPipe: Bool { code == EPIPE }
  }

  /// Writes `text` to stdout.
  static func out(_ text: String) throws(Failure) { try write(text, to: STDOUT_FILENO) }

  /// Writes `text` to stdout followed by a newline, like `print`.
  static func line(_ text: String = "") throws(Failure) { try write(text + "\n", to: STDOUT_FILENO) }

  /// Writes `text` to stderr.
  static func err(_ text: String) throws(Failure) { try write(text, to: STDERR_FILENO) }

  /// Writes every byte of `text`, retrying short writes and EINTR.
  static func write(_ text: String, to descriptor: Int32) throws(Failure) {
    var bytes = Array(text.utf8)
    let count = bytes.count
    if count == 0 { return }
    var written = 0
    let failure: Int32? = bytes.withUnsafeMutableBytes { buffer -> Int32? in
      while written < count {
        let n = Glibc.write(descriptor, buffer.baseAddress! + written, count - written)
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        written += n
      }
      return nil
    }
    if let failure { throw Failure(descriptor: descriptor, code: failure) }
  }
}
