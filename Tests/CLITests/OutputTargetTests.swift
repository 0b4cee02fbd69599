import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every command that writes an output file (`export -o`, `backup FILE`, `import --rejects`,
/// `demo --keep`) against what the path already names: a FIFO and a character device are
/// written through and stay what they were, a symbolic link stays a link, a full device is 74
/// naming it, and a directory or a link to nothing is refused with 73.
@Suite struct OutputTargetTests {
  /// `lstat` of `path`: its type bits, device, inode and the device it stands for.
  struct Node: Equatable {
    var type: mode_t
    var device: UInt
    var inode: UInt
    var represents: UInt
  }

  static func node(_ path: String) -> Node? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return Node(
      type: status.st_mode & S_IFMT, device: UInt(status.st_dev), inode: UInt(status.st_ino),
      represents: UInt(status.st_rdev))
  }

  /// Reads the FIFO at `path` to its end on another thread; `wait()` returns what came through.
  final class FIFOReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ path: String) {
      Thread.detachNewThread { [self] in
        if let handle = FileHandle(forReadingAtPath: path) {
          data = handle.readDataToEndOfFile()
          try? handle.close()
        }
        done.signal()
      }
    }

    /// What came through; after 30 s without an end, what came so far, and the FIFO is opened
    /// for writing once so the reader's `open` returns (a failed command never opened it).
    func wait(path: String) -> Data {
      if done.wait(timeout: .now() + 30) == .timedOut {
        let fd = open(path, O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
        done.wait()
      }
      return data
    }
  }

  func makeFIFO(_ cli: CLI, _ name: String) throws -> String {
    let path = cli.directory.appendingPathComponent(name).path
    #expect(mkfifo(path, 0o600) == 0)
    return path
  }

  @Test func aFIFOIsWrittenThroughAndStaysAFIFO() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea"]).code == 0)
    let fifo = try makeFIFO(cli, "journal.fifo")
    let before = try #require(Self.node(fifo))
    for force in [[], ["--force"]] {
      let reader = FIFOReader(fifo)
      let result = try cli.run(["export", "--format", "ledger", "-o", fifo] + force)
      let text = String(decoding: reader.wait(path: fifo), as: UTF8.self)
      #expect(result.code == 0, "\(force): \(result.stderr)")
      #expect(text.contains("Tea") && text.contains("3.00"), "the journal went through the FIFO: \(text)")
      #expect(Self.node(fifo) == before, "still the same FIFO")
    }
    let reader = FIFOReader(fifo)
    let backup = try cli.run(["backup", fifo, "--force"])
    let bytes = reader.wait(path: fifo)
    #expect(backup.code == 0, "\(backup.stderr)")
    #expect(bytes.starts(with: Data("SQLite format 3\0".utf8)), "the backup went through the FIFO")
    #expect(Self.node(fifo) == before)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: cli.directory.path).filter {
      $0.hasPrefix(".")
    }
    #expect(leftovers.isEmpty, "no temporary file is left: \(leftovers)")
  }

  @Test func devNullIsWrittenThroughNeverReplaced() throws {
    let cli = try CLI()
    let input = try cli.file("bank.csv", BankFiles.oneBadRow)
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea"]).code == 0)
    let before = try #require(Self.node("/dev/null"))
    #expect(before.type == S_IFCHR)
    let commands: [[String]] = [
      ["export", "--format", "ledger", "-o", "/dev/null", "--force"],
      ["export", "--format", "beancount", "-o", "/dev/null"],
      ["backup", "/dev/null", "--force"],
      ["import", input, "--skip-invalid", "--rejects", "/dev/null", "--force"],
    ]
    for command in commands {
      let result = try cli.run(command)
      #expect(result.code == 0, "\(command): \(result.stderr)")
      #expect(Self.node("/dev/null") == before, "\(command): /dev/null is still the same device node")
    }
    let demo = try cli.run(["demo", "--keep", "/dev/null", "--width", "60"], useDatabase: false)
    #expect(demo.code == 73 && demo.stderr.contains("/dev/null"), "\(demo.stderr)")
    #expect(Self.node("/dev/null") == before)
  }

  @Test func aFullDeviceIs74NamingIt() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea"]).code == 0)
    let before = try #require(Self.node("/dev/full"))
    for command in [["export", "--format", "ledger", "-o", "/dev/full"], ["backup", "/dev/full", "--force"]] {
      let result = try cli.run(command)
      #expect(result.code == 74, "\(command): \(result.code) \(result.stderr)")
      #expect(
        result.stderr.contains("cannot write /dev/full: No space left on device"), "\(command): \(result.stderr)")
      #expect(Self.node("/dev/full") == before)
    }
  }

  @Test func aSymlinkStaysALinkAndItsRegularTargetIsReplaced() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea"]).code == 0)
    let target = try cli.file("books.journal", "old\n")
    let link = cli.directory.appendingPathComponent("link.journal").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let refused = try cli.run(["export", "--format", "ledger", "-o", link])
    #expect(refused.code == 73 && refused.stderr.contains("--force"), "\(refused.stderr)")
    let forced = try cli.run(["export", "--format", "ledger", "-o", link, "--force"])
    #expect(forced.code == 0, "\(forced.stderr)")
    #expect(Self.node(link)?.type == S_IFLNK, "the link is still a link")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    #expect(try String(contentsOfFile: target, encoding: .utf8).contains("Tea"), "the target holds the journal")

    let dangling = cli.directory.appendingPathComponent("dangling.journal").path
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "/nonexistent/x.journal")
    let nowhere = try cli.run(["export", "--format", "ledger", "-o", dangling, "--force"])
    #expect(nowhere.code == 73, "\(nowhere.stderr)")
    #expect(nowhere.stderr.contains("dangling.journal") && nowhere.stderr.contains("symbolic link to a missing file"))
    #expect(Self.node(dangling)?.type == S_IFLNK)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling) == "/nonexistent/x.journal")
  }

  @Test func aDirectoryAndADemoOverAFIFOAreRefused() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea"]).code == 0)
    let folder = cli.directory.appendingPathComponent("out").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let directory = try cli.run(["export", "--format", "ledger", "-o", folder, "--force"])
    #expect(directory.code == 73 && directory.stderr.contains("it is a directory"), "\(directory.stderr)")
    let fifo = try makeFIFO(cli, "demo.fifo")
    let before = Self.node(fifo)
    let demo = try cli.run(["demo", "--keep", fifo, "--width", "60"], useDatabase: false)
    #expect(demo.code == 73 && demo.stderr.contains("demo.fifo"), "\(demo.stderr)")
    #expect(Self.node(fifo) == before, "the FIFO is untouched")
  }
}
