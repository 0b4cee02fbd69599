// The C standard streams as constants. This module alone builds in the Swift 5 language mode:
// stdio's `stdout`/`stderr` are C globals that Swift 6 refuses to read as shared mutable state,
// although glibc never changes them. `print` writes to the same `FILE*`, so output through these
// and through `print` keeps its order.
#if canImport(Glibc)
  import Glibc
#endif

/// stdio's `stdout`.
public let standardOutputFile: UnsafeMutablePointer<FILE> = stdout
/// stdio's `stderr`.
public let standardErrorFile: UnsafeMutablePointer<FILE> = stderr
