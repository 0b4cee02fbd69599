import ConsoleStreams
import ExpenseRender
import Foundation
import SystemIO

#if canImport(Glibc)
  import Glibc
#endif

/// The one way text reaches stdout and stderr: C stdio, whose errors are checked, never
/// Foundation's `FileHandle.write` (which traps on a full device or a closed pipe).
///
/// stdout goes through the same `FILE*` as Swift's `print`, so the two never reorder; a write
/// error there surfaces at the latest when `main` flushes before exiting, and is thrown as
/// `Console.Failure`: a closed pipe ends quietly, any other failure exits 74 with one line.
/// `SIGPIPE` is ignored (see `main`), so a reader that went away is an `EPIPE`, not a kill.
enum Console {
  /// stdio's stdout (the stream `print` uses).
  nonisolated(unsafe) static let stdoutFile = standardOutputFile
  /// stdio's stderr.
  nonisolated(unsafe) static let stderrFile = standardErrorFile

  /// A write to stdout, stderr or an output file that did not complete.
  struct Failure: Error {
    /// The file descriptor written to.
    var descriptor: Int32
    /// `errno` of the failed write.
    var code: Int32
    /// True for a reader that went away (`report | head -1`): not worth a message.
    var isClosedPipe: Bool { code == EPIPE }
    /// `strerror` of the code.
    var reason: String { String(cString: strerror(code)) }
  }

  /// Writes `text` to stdout (buffered with `print`).
  static func out(_ text: String) throws(Failure) {
    errno = 0
    if fputs(text, stdoutFile) < 0 || ferror(stdoutFile) != 0 {
      throw Failure(descriptor: STDOUT_FILENO, code: errno == 0 ? EIO : errno)
    }
  }

  /// Writes `bytes` to stdout (buffered with `print`, so the two keep their order): the
  /// blocks of a streamed listing.
  static func out(bytes: UnsafeRawBufferPointer) throws(Failure) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    errno = 0
    if fwrite(base, 1, bytes.count, stdoutFile) < bytes.count || ferror(stdoutFile) != 0 {
      throw Failure(descriptor: STDOUT_FILENO, code: errno == 0 ? EIO : errno)
    }
  }

  /// A buffer whose blocks go to stdout (`out(bytes:)`), for a command that streams its rows.
  static func outputBuffer() -> OutputBuffer {
    OutputBuffer { bytes in try Console.out(bytes: bytes) }
  }

  /// Writes `text` to stdout followed by a newline, like `print`.
  static func line(_ text: String = "") throws(Failure) { try out(text + "\n") }

  /// Writes `text` to stderr (unbuffered).
  static func err(_ text: String) throws(Failure) {
    errno = 0
    if fputs(text, stderrFile) < 0 || ferror(stderrFile) != 0 {
      throw Failure(descriptor: STDERR_FILENO, code: errno == 0 ? EIO : errno)
    }
  }

  /// Flushes stdout, turning any write error since the last flush into a `Failure`.
  static func flush() throws(Failure) {
    errno = 0
    if fflush(stdoutFile) != 0 || ferror(stdoutFile) != 0 {
      throw Failure(descriptor: STDOUT_FILENO, code: errno == 0 ? EIO : errno)
    }
  }

  /// Writes every byte of `text` to a raw descriptor (an output file), retrying short writes
  /// and EINTR.
  static func write(_ text: String, to descriptor: Int32) throws(Failure) {
    if let failure = FileDescriptorWriter.writeAll(descriptor, text) {
      throw Failure(descriptor: descriptor, code: failure)
    }
  }
}

/// An output failure after the database has already committed a change: the message says so,
/// so a script does not take a lost summary for a lost import.
struct CommittedOutputFailure: Error {
  var failure: Console.Failure
  /// What was committed, e.g. "the import of bank.csv was committed (120 new rows)"; nil when
  /// nothing was (a dry run).
  var committed: String?
}
