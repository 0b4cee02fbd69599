import Foundation
import TestSupport
import Testing

/// Helpers of the safety tests: a second process on the database (python3's sqlite3 module,
/// which the width checker already needs), generated bank files, and the binary started in the
/// background.
enum Python {
  /// Runs `sql` on the database at `path` through python3's sqlite3 module; returns the first
  /// column of the rows, one per line.
  @discardableResult
  static func sqlite(_ path: String, _ sql: String) throws -> String {
    let script = """
      import sqlite3, sys
      c = sqlite3.connect(sys.argv[1], isolation_level=None)
      rows = c.executescript(sys.argv[2]) if ';' in sys.argv[2].strip().rstrip(';') else c.execute(sys.argv[2])
      print('\\n'.join(str(r[0]) for r in (rows.fetchall() if rows else [])))
      """
    let result = try run(["-c", script, path, sql])
    guard result.code == 0 else { throw Failure(message: result.output) }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Starts python3 holding a read transaction (or, `writing`, the write lock) open on the
  /// database until it is killed.
  static func holdReadTransaction(_ path: String, writing: Bool = false) throws -> Process {
    let script = """
      import sqlite3, sys, time
      c = sqlite3.connect(sys.argv[1], isolation_level=None)
      c.execute('BEGIN IMMEDIATE' if sys.argv[2] == 'w' else 'BEGIN')
      c.execute('SELECT COUNT(*) FROM expense').fetchall()
      print('holding', flush=True)
      time.sleep(30)
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path, writing ? "w" : "r"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    // Returns once the transaction is open.
    _ = output.fileHandleForReading.availableData
    return process
  }

  static func run(_ arguments: [String]) throws -> (code: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  struct Failure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }
}

/// Bank files made by the benchmark generator (seeded, so the same rows every run).
enum Generated {
  static func file(rows: Int, seed: Int = 20_261_022, in directory: URL) throws -> String {
    let out = directory.appendingPathComponent("generated-\(seed)")
    let result = try Python.run([
      CLI.root.appendingPathComponent("Benchmarks/generate.py").path, "--rows", String(rows), "--out", out.path,
      "--seed", String(seed),
    ])
    guard result.code == 0 else { throw Python.Failure(message: result.output) }
    let csv = try FileManager.default.contentsOfDirectory(atPath: out.path).first {
      $0.hasPrefix("expenses-") && $0.hasSuffix(".csv")
    }
    return out.appendingPathComponent(try #require(csv)).path
  }
}

extension CLI {
  /// Starts `expenses ARGS --db <temp>` in the background, output discarded.
  func start(_ arguments: [String], database: String? = nil) throws -> Process {
    let process = Process()
    process.executableURL = CLI.binary
    process.arguments = arguments + ["--db", database ?? db]
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "LANG": "C.UTF-8"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Number of expenses in a database file, read by another program.
  static func rows(atPath path: String) throws -> Int {
    Int(try Python.sqlite(path, "SELECT COUNT(*) FROM expense")) ?? -1
  }
}

/// Bank files the safety tests share.
enum BankFiles {
  /// Three rows, the second with an amount that does not parse (line 3): for `--skip-invalid`
  /// and `--rejects`.
  static let oneBadRow = """
    Date,Description,Amount
    2026-10-01,Coffee,-4.50
    2026-10-02,Bakery,twelve
    2026-10-03,Groceries,-52.10

    """
}

/// Damage to a database file, as a bad disk or a stray write would do it.
enum Damage {
  /// Overwrites the page in the middle of the file at `path` with garbage (0xA5 bytes). Fold the
  /// write-ahead log into the file first, or the damage may be hidden by a newer copy there.
  static func overwriteMiddlePage(of path: String) throws {
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    // One whole page of the file's own page size (header bytes 16-17, big-endian; 1 = 64 KiB).
    try handle.seek(toOffset: 16)
    let field = try #require(try handle.read(upToCount: 2))
    let raw = Int(field[field.startIndex]) << 8 | Int(field[field.startIndex + 1])
    let page = raw == 1 ? 65536 : raw
    try handle.seek(toOffset: UInt64(size / page / 2 * page))
    try handle.write(contentsOf: Data(repeating: 0xA5, count: page))
    try handle.close()
  }
}
