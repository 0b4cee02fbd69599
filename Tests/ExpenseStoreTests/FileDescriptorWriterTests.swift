import Foundation
import SystemIO
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `FileDescriptorWriter.writeAll`, the one write loop (the store's file copies use it): every
/// byte arrives, and a failed write gives back its `errno` for the caller to name.
@Suite struct FileDescriptorWriterTests {
  @Test func everyByteArrivesThroughAPipeSmallerThanTheText() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    // 1 MiB through a 64 KiB pipe: many short writes, read on a thread of its own (not a task:
    // the write blocks this thread, and the concurrency pool may have no other one free).
    let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let reader = fds[0]
    let received = Received()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        received.append(buffer[0..<n])
      }
      done.signal()
    }
    thread.start()
    #expect(FileDescriptorWriter.writeAll(fds[1], bytes) == nil)
    close(fds[1])
    done.wait()
    #expect(received.bytes == bytes)
    close(fds[0])
  }

  /// What the reader thread got, handed back under a lock.
  final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt8] = []
    func append(_ part: ArraySlice<UInt8>) { lock.withLock { storage += part } }
    var bytes: [UInt8] { lock.withLock { storage } }
  }

  @Test func aCountWritesThatManyAndAFailureIsItsErrno() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fdw-\(UUID().uuidString)").path
    let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
    #expect(fd >= 0)
    defer { unlink(path) }
    #expect(FileDescriptorWriter.writeAll(fd, Array("abcdef".utf8), count: 3) == nil)
    #expect(FileDescriptorWriter.writeAll(fd, "") == nil)
    #expect(FileDescriptorWriter.writeAll(fd, "é\n") == nil)
    close(fd)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "abcé\n")
    #expect(FileDescriptorWriter.writeAll(fd, "x") == EBADF, "a closed descriptor")
    let readOnly = open(path, O_RDONLY)
    defer { close(readOnly) }
    #expect(FileDescriptorWriter.writeAll(readOnly, "x") == EBADF, "a descriptor not open for writing")
  }
}
