import Foundation
import SystemIO
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `FileDescriptorWriter.writeAll`, the one write loop (the store's file copies use it): every
/// byte arrives, and a failed write gives back its `errno` for the caller to name.
@Suite struct FileDescriptorWriterTests {
  @Test func everyByteArrivesThroughAPipeSmallerThanTheText() async throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    // 1 MiB through a 64 KiB pipe: many short writes, read on another thread.
    let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let reader = fds[0]
    let received = Task.detached { () -> [UInt8] in
      var out: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        out += buffer[0..<n]
      }
      return out
    }
    #expect(FileDescriptorWriter.writeAll(fds[1], bytes) == nil)
    close(fds[1])
    #expect(await received.value == bytes)
    close(fds[0])
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
