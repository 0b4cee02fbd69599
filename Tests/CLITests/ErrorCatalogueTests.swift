import Foundation
import Testing

/// Every case of `Fixtures/errors/` (one folder per error a user can meet; the format is in
/// its README) run through the built binary: the message, the exit code, and nothing written.
/// The cases are the folder's, not a list here: a new folder is a new test, and a folder that
/// is not a complete case fails.
@Suite struct ErrorCatalogueTests {
  static let cases: [String] = ErrorCatalogue.caseNames()

  @Test func theCatalogueHasItsCasesAndItsReadme() throws {
    #expect(Self.cases.count >= 30, "\(Self.cases)")
    #expect(FileManager.default.fileExists(atPath: ErrorCatalogue.root.appendingPathComponent("README.md").path))
  }

  @Test(arguments: cases) func theCaseFailsAsCatalogued(_ name: String) throws {
    let entry = try ErrorCatalogue.Case(name: name)
    let run = try CatalogueRun(entry)
    for line in entry.setup {
      let result = try run.expenses(line)
      #expect(result.code == 0, "\(name): setup '\(line.joined(separator: " "))' failed: \(result.stderr)")
    }
    let before = try run.snapshot()
    let result = try run.expenses(entry.command)
    #expect(result.code == entry.exit, "\(name): exit \(result.code), expected \(entry.exit); stderr: \(result.stderr)")
    let expected = run.substitute(entry.stderr)
    #expect(
      ErrorCatalogue.matches(result.stderr, expected),
      "\(name): stderr\n\(result.stderr)\nexpected\(expected.prefix ? " (prefix)" : "")\n\(expected.text)")
    #expect(result.stdout.isEmpty, "\(name): stdout\n\(result.stdout)")
    let after = try run.snapshot()
    // Nothing written: every file is as it was, and nothing new is left but the database a
    // command created on its way to the error (an import opens it before it reads the file).
    let created = Set(after.keys).subtracting(before.keys)
    #expect(created.isSubset(of: run.databaseFiles), "\(name): left behind \(created.sorted())")
    for (path, bytes) in before where !run.databaseFiles.contains(path) || path == run.database {
      #expect(after[path] == bytes, "\(name): \(path) was changed or removed")
    }
  }
}

/// One case folder, read.
enum ErrorCatalogue {
  static var root: URL { CLI.root.appendingPathComponent("Fixtures/errors") }

  /// The names of the case folders, sorted.
  static func caseNames() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return names.filter { name in
      var folder: ObjCBool = false
      return FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &folder)
        && folder.boolValue
    }.sorted()
  }

  /// The files of a case that are not inputs.
  static let reserved: Set<String> = ["command", "setup", "stderr", "exit", "http", "status", "detail"]

  struct Case {
    var name: String
    var folder: URL
    var command: [String]
    var setup: [[String]]
    var stderr: Expected
    var exit: Int32

    init(name: String) throws {
      let folder = ErrorCatalogue.root.appendingPathComponent(name)
      func read(_ file: String) -> String? {
        try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      }
      let command = try #require(read("command"), "\(name): no 'command' file")
      let stderr = try #require(read("stderr"), "\(name): no 'stderr' file")
      let code = try #require(read("exit"), "\(name): no 'exit' file")
      self.name = name
      self.folder = folder
      self.command = try #require(ErrorCatalogue.words(command).first, "\(name): 'command' is empty")
      setup = ErrorCatalogue.words(read("setup") ?? "")
      self.stderr = Expected(stderr)
      exit = try #require(
        Int32(code.trimmingCharacters(in: .whitespacesAndNewlines)), "\(name): 'exit' is not a number")
    }

    /// The input files, copied into the run's folder.
    var inputs: [String] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      return names.filter { !ErrorCatalogue.reserved.contains($0) }.sorted()
    }
  }

  /// Expected text: exact, or (when its last line is `...`) the start of the text.
  struct Expected {
    var text: String
    var prefix: Bool

    init(_ file: String) {
      if file.hasSuffix("\n...\n") || file.hasSuffix("\n...") {
        text = String(file[..<file.range(of: "...", options: .backwards)!.lowerBound])
        prefix = true
      } else {
        text = file
        prefix = false
      }
    }

    init(text: String, prefix: Bool) {
      self.text = text
      self.prefix = prefix
    }
  }

  static func matches(_ actual: String, _ expected: Expected) -> Bool {
    expected.prefix ? actual.hasPrefix(expected.text) : actual == expected.text
  }

  /// Lines of words: blank lines and `#` comments skipped, words split on spaces, `'...'`
  /// keeping spaces in one word.
  static func words(_ text: String) -> [[String]] {
    text.split(separator: "\n").compactMap { line -> [String]? in
      let line = line.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { return nil }
      var words: [String] = []
      var word = ""
      var quoted = false
      var started = false
      for character in line {
        if character == "'" {
          quoted.toggle()
          started = true
        } else if character == " " && !quoted {
          if started { words.append(word) }
          word = ""
          started = false
        } else {
          word.append(character)
          started = true
        }
      }
      if started { words.append(word) }
      return words
    }
  }
}

/// A case's run: its own folder (the working directory, `$DIR`) holding its inputs, the
/// database `$DB` in it, and the binary run with a pinned environment.
final class CatalogueRun {
  let directory: URL
  var database: String { directory.appendingPathComponent("test.sqlite").path }
  var databaseFiles: Set<String> { Set(["", "-wal", "-shm", "-journal"].map { database + $0 }) }

  init(_ entry: ErrorCatalogue.Case) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-errors-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for input in entry.inputs {
      try FileManager.default.copyItem(
        at: entry.folder.appendingPathComponent(input), to: directory.appendingPathComponent(input))
    }
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// `$DB`, `$DIR` and `$FIXTURES` replaced by this run's paths.
  func substitute(_ text: String) -> String {
    text.replacingOccurrences(of: "$DB", with: database).replacingOccurrences(of: "$DIR", with: directory.path)
      .replacingOccurrences(of: "$FIXTURES", with: CLI.root.appendingPathComponent("Fixtures").path)
  }

  func substitute(_ expected: ErrorCatalogue.Expected) -> ErrorCatalogue.Expected {
    ErrorCatalogue.Expected(text: substitute(expected.text), prefix: expected.prefix)
  }

  func expenses(_ arguments: [String]) throws -> CLI.Result {
    let process = Process()
    process.executableURL = CLI.binary
    process.arguments = arguments.map(substitute)
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "LANG": "C.UTF-8"]
    process.currentDirectoryURL = directory
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLI.Result(
      stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
      code: process.terminationStatus)
  }

  /// Every regular file under the folder (but SQLite's -wal and -shm, which readers may leave
  /// and remove) with its bytes; a folder is listed with no bytes.
  func snapshot() throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: directory.path)
    while let relative = enumerator?.nextObject() as? String {
      let path = directory.appendingPathComponent(relative).path
      if path.hasSuffix("-wal") || path.hasSuffix("-shm") { continue }
      var folder: ObjCBool = false
      FileManager.default.fileExists(atPath: path, isDirectory: &folder)
      files[path] = folder.boolValue ? Data() : (FileManager.default.contents(atPath: path) ?? Data())
    }
    return files
  }
}
