#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Transcodes a byte stream in a legacy encoding (Shift_JIS, EUC-KR, GB18030, Windows-1251, ...)
/// to UTF-8 while streaming, through the C library's `iconv`.
///
/// Why iconv and not tables of our own: glibc's converters are the ones every Linux tool uses,
/// kept up to date with the vendors' extensions (NEC/IBM rows of Shift_JIS, GB18030's four-byte
/// forms). A byte sequence the encoding does not define becomes the byte 0xFF, which is invalid
/// UTF-8, so the field holding it is reported as invalid text with its line and column instead
/// of being silently altered.
public final class IconvSource: ByteSource {
  let inner: any ByteSource
  let converter: iconv_t
  let name: String
  var raw: UnsafeMutablePointer<CChar>
  let rawCapacity = 64 * 1024
  var rawStart = 0
  var rawEnd = 0
  var innerDone = false

  /// Opens a converter from `encoding` (an iconv name such as `SHIFT_JIS`) to UTF-8.
  public init(_ inner: any ByteSource, from encoding: String) throws(ImportError) {
    let converter = iconv_open("UTF-8", encoding)
    if converter == iconv_t(bitPattern: -1) {
      throw .invalidOption(option: "--encoding", message: "this system has no converter for \(encoding)")
    }
    self.inner = inner
    self.converter = converter!
    self.name = encoding
    raw = .allocate(capacity: rawCapacity)
  }

  deinit {
    iconv_close(converter)
    raw.deallocate()
  }

  public func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(ImportError) -> Int {
    var produced = 0
    while produced + 8 <= capacity {
      if rawStart == rawEnd || (!innerDone && rawEnd - rawStart < 8) {
        // Move what is left (an incomplete sequence) to the front and refill.
        let left = rawEnd - rawStart
        if left > 0 && rawStart > 0 { (raw).update(from: raw + rawStart, count: left) }
        rawStart = 0
        rawEnd = left
        if !innerDone {
          let bytes = UnsafeMutableRawPointer(raw + rawEnd).assumingMemoryBound(to: UInt8.self)
          let n = try inner.read(into: bytes, capacity: rawCapacity - rawEnd)
          if n == 0 { innerDone = true }
          rawEnd += n
        }
        if rawStart == rawEnd { break }
      }
      var input: UnsafeMutablePointer<CChar>? = raw + rawStart
      var inputLeft = rawEnd - rawStart
      var output: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(buffer + produced)
        .assumingMemoryBound(to: CChar.self)
      var outputLeft = capacity - produced - 4
      let result = iconv(converter, &input, &inputLeft, &output, &outputLeft)
      let consumed = (rawEnd - rawStart) - inputLeft
      rawStart += consumed
      produced = capacity - 4 - outputLeft
      if result != -1 { continue }
      switch errno {
      case E2BIG:
        return produced
      case EINVAL where !innerDone:
        continue  // an incomplete sequence at the end of the chunk: refill
      default:
        // Not defined in this encoding (or cut off at the end of the file): mark it invalid.
        buffer[produced] = 0xFF
        produced += 1
        rawStart += 1
      }
    }
    return produced
  }
}

extension TextEncoding {
  /// `inner` as UTF-8 (or as the single-byte encoding the importer decodes per field).
  func transcoder(_ inner: any ByteSource) throws(ImportError) -> any ByteSource {
    switch self {
    case .utf16le: return UTF16Source(inner, bigEndian: false)
    case .utf16be: return UTF16Source(inner, bigEndian: true)
    default:
      if let name = iconvName { return try IconvSource(inner, from: name) }
      return inner
    }
  }
}
