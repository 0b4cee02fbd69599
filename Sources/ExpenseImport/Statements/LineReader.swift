/// Splits a byte stream into lines (LF, CRLF or lone CR), numbering them from 1, without
/// keeping more than the current line: what the line-based readers (OFX 1.x, QIF, MT940) use.
public final class LineReader {
  let source: any ByteSource
  var buffer = [UInt8](repeating: 0, count: 64 << 10)
  var start = 0
  var end = 0
  var atEnd = false
  var skipLF = false
  /// The number of the line `next()` returned last (0 before the first).
  public private(set) var line = 0
  /// Lines longer than this are an error (a binary file, or no line ends at all).
  public let maxLineBytes: Int

  public init(_ source: any ByteSource, maxLineBytes: Int = ImportLimits.maxRecordBytes) {
    self.source = source
    self.maxLineBytes = maxLineBytes
  }

  /// The next line's bytes without its end, or nil at the end of the file. Throws
  /// `ImportError.row` (kind `.recordTooLong`) for a line over `maxLineBytes`.
  public func next(file: String) throws(ImportError) -> [UInt8]? {
    var current: [UInt8] = []
    while true {
      if start == end {
        if atEnd { break }
        let n = try buffer.withUnsafeMutableBufferPointer { (p) throws(ImportError) -> Int in
          try source.read(into: p.baseAddress!, capacity: p.count)
        }
        if n == 0 {
          atEnd = true
          break
        }
        start = 0
        end = n
      }
      if skipLF {
        skipLF = false
        if buffer[start] == 0x0A {
          start += 1
          continue
        }
      }
      var i = start
      while i < end && buffer[i] != 0x0A && buffer[i] != 0x0D { i += 1 }
      current.append(contentsOf: buffer[start..<i])
      if current.count > maxLineBytes {
        throw .row(
          ImportIssue(
            kind: .recordTooLong, file: file, line: line + 1, column: nil, columnName: nil,
            rawValue: String(decoding: current.prefix(60), as: UTF8.self),
            message: "a line longer than \(maxLineBytes) bytes",
            hint: "this is not a statement file, or its line ends are missing"))
      }
      if i < end {
        skipLF = buffer[i] == 0x0D
        start = i + 1
        line += 1
        return current
      }
      start = end
    }
    // The end of the file: a last line without a line end, or nothing (a file that ends with
    // a line end has no empty last line).
    if current.isEmpty { return nil }
    line += 1
    return current
  }
}
