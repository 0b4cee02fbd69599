#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Something that hands out bytes in chunks: a file, an in-memory buffer, a transcoder.
public protocol ByteSource: AnyObject {
  /// Copies up to `capacity` bytes into `buffer`; returns how many, 0 at the end.
  func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(ImportError) -> Int
}

/// Reads a file with POSIX `read()`; the caller's buffer is the only copy in memory.
public final class FileSource: ByteSource {
  let fd: Int32
  let path: String
  /// Bytes handed out so far.
  public private(set) var bytesRead: Int64 = 0
  /// The file size from `fstat`, when it is a regular file.
  public let totalBytes: Int64?
  var ownsDescriptor = true

  public init(path: String) throws(ImportError) {
    self.path = path
    var info = stat()
    if stat(path, &info) != 0 {
      let code = errno
      if code == ENOENT || code == ENOTDIR { throw .noInput(path: path) }
      throw .io(path: path, message: String(cString: strerror(code)))
    }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw .io(path: path, message: "is a directory") }
    let fd = open(path, O_RDONLY)
    if fd < 0 { throw .io(path: path, message: String(cString: strerror(errno))) }
    self.fd = fd
    totalBytes = (info.st_mode & S_IFMT) == S_IFREG ? Int64(info.st_size) : nil
  }

  /// Standard input (`import -`): not closed, size unknown.
  public init(standardInput: Void) {
    fd = STDIN_FILENO
    path = "<stdin>"
    totalBytes = nil
    ownsDescriptor = false
  }

  deinit { if ownsDescriptor { close(fd) } }

  public func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(ImportError) -> Int {
    while true {
      #if canImport(Glibc)
        let n = Glibc.read(fd, buffer, capacity)
      #else
        let n = Darwin.read(fd, buffer, capacity)
      #endif
      if n >= 0 {
        bytesRead += Int64(n)
        return n
      }
      if errno == EINTR { continue }
      throw .io(path: path, message: String(cString: strerror(errno)))
    }
  }
}

/// A source that reports how far it has got, for the progress bar.
public protocol ProgressSource: AnyObject {
  var bytesRead: Int64 { get }
  var totalBytes: Int64? { get }
}

extension FileSource: ProgressSource {}

/// Bytes read once already (the detection sample of a pipe), then the rest of the stream.
public final class ReplaySource: ByteSource, ProgressSource {
  let prefix: MemorySource
  let rest: FileSource
  var prefixDone = false
  public private(set) var bytesRead: Int64 = 0
  public var totalBytes: Int64? { nil }

  public init(prefix: [UInt8], rest: FileSource) {
    self.prefix = MemorySource(prefix)
    self.rest = rest
  }

  public func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(ImportError) -> Int {
    if !prefixDone {
      let n = try prefix.read(into: buffer, capacity: capacity)
      if n > 0 {
        bytesRead += Int64(n)
        return n
      }
      prefixDone = true
    }
    let n = try rest.read(into: buffer, capacity: capacity)
    bytesRead += Int64(n)
    return n
  }
}

/// Bytes already in memory (tests, detection samples).
public final class MemorySource: ByteSource {
  let bytes: [UInt8]
  var offset = 0

  public init(_ bytes: [UInt8]) { self.bytes = bytes }
  public convenience init(_ text: String) { self.init(Array(text.utf8)) }

  public func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(ImportError) -> Int {
    let n = min(capacity, bytes.count - offset)
    if n <= 0 { return 0 }
    bytes.withUnsafeBufferPointer { all in
      buffer.update(from: all.baseAddress! + offset, count: n)
    }
    offset += n
    return n
  }
}

/// Transcodes a UTF-16 byte stream (LE or BE) to UTF-8 while streaming.
///
/// A leading byte order mark becomes the UTF-8 BOM, which the CSV reader strips. Unpaired
/// surrogates become the byte 0xFF, which is invalid UTF-8, so the field that holds one is
/// reported as invalid text instead of being silently altered.
public final class UTF16Source: ByteSource {
  let inner: any ByteSource
  let bigEndian: Bool
  var raw: UnsafeMutablePointer<UInt8>
  let rawCapacity = 64 * 1024
  var rawStart = 0
  var rawEnd = 0
  var innerDone = false
  var pendingHigh: UInt32?

  public init(_ inner: any ByteSource, bigEndian: Bool) {
    self.inner = inner
    self.bigEndian = bigEndian
    raw = .allocate(capacity: rawCapacity)
  }

  deinit { raw.deallocate() }

  public func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(ImportError) -> Int {
    precondition(capacity >= 8)
    var out = 0
    while out + 4 <= capacity {
      if rawEnd - rawStart < 2 {
        if innerDone {
          if rawEnd - rawStart == 1 || pendingHigh != nil {  // odd trailing byte or lone high surrogate
            buffer[out] = 0xFF
            out += 1
            rawStart = rawEnd
            pendingHigh = nil
          }
          break
        }
        // Move the leftover byte to the front and refill.
        let left = rawEnd - rawStart
        if left == 1 { raw[0] = raw[rawStart] }
        rawStart = 0
        rawEnd = left
        let n = try inner.read(into: raw + rawEnd, capacity: rawCapacity - rawEnd)
        if n == 0 { innerDone = true }
        rawEnd += n
        continue
      }
      let a = UInt32(raw[rawStart])
      let b = UInt32(raw[rawStart + 1])
      rawStart += 2
      let unit = bigEndian ? (a << 8 | b) : (b << 8 | a)
      var scalar: UInt32
      if let high = pendingHigh {
        pendingHigh = nil
        if unit >= 0xDC00 && unit <= 0xDFFF {
          scalar = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
        } else {
          buffer[out] = 0xFF
          out += 1
          rawStart -= 2  // reprocess this unit on its own
          continue
        }
      } else if unit >= 0xD800 && unit <= 0xDBFF {
        pendingHigh = unit
        continue
      } else if unit >= 0xDC00 && unit <= 0xDFFF {
        buffer[out] = 0xFF
        out += 1
        continue
      } else {
        scalar = unit
      }
      if scalar < 0x80 {
        buffer[out] = UInt8(scalar)
        out += 1
      } else if scalar < 0x800 {
        buffer[out] = UInt8(0xC0 | (scalar >> 6))
        buffer[out + 1] = UInt8(0x80 | (scalar & 0x3F))
        out += 2
      } else if scalar < 0x10000 {
        buffer[out] = UInt8(0xE0 | (scalar >> 12))
        buffer[out + 1] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
        buffer[out + 2] = UInt8(0x80 | (scalar & 0x3F))
        out += 3
      } else {
        buffer[out] = UInt8(0xF0 | (scalar >> 18))
        buffer[out + 1] = UInt8(0x80 | ((scalar >> 12) & 0x3F))
        buffer[out + 2] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
        buffer[out + 3] = UInt8(0x80 | (scalar & 0x3F))
        out += 4
      }
    }
    return out
  }
}
