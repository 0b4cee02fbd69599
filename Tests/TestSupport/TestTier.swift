import Foundation

/// Which tests this run holds: the full suite (the README's test command and CI), or the fast
/// in-process tier `scripts/test --fast` starts with `EXPENSES_TEST_FAST=1`, which leaves out
/// what needs a PostgreSQL server (the built binary's tests and the PostgreSQL store's own are
/// left out by target). A left-out test is reported as skipped with this reason, never as
/// passed; a parameterized test runs its SQLite cases only.
public enum TestTier {
  /// True in `scripts/test --fast`.
  public static let fast = ProcessInfo.processInfo.environment["EXPENSES_TEST_FAST"] == "1"
  /// Whether tests that start a PostgreSQL server run.
  public static let postgres = !fast
  /// Why a PostgreSQL test is skipped.
  public static let reason = "needs a PostgreSQL server: runs in the full suite (scripts/test), not --fast"
}
