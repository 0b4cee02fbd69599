import Foundation
import Testing

/// Keeps the benchmark harness from rotting: a 10k-row smoke run against the debug binary.
/// It times nothing that is asserted; it checks that the harness runs and prints its table and
/// that its own correctness checks (row counts, report totals against SQL) pass.
@Suite struct BenchmarkSmokeTests {
  @Test func harnessRunsOnTenThousandRows() throws {
    let cli = try CLI()
    let result = try Python.run([
      CLI.root.appendingPathComponent("Benchmarks/run.py").path, "--smoke", "--binary", CLI.binary.path,
      "--data", cli.directory.appendingPathComponent("data").path, "--out",
      cli.directory.appendingPathComponent("out").path,
    ])
    let text = result.output
    #expect(result.code == 0, "\(text)")
    #expect(text.contains("| operation | size |"), "prints the results table")
    #expect(text.contains("`import` into a new database"))
    #expect(!text.contains("FAILURES:"), "\(text)")
  }
}
