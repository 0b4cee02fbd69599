/// A streaming, byte-level RFC 4180 reader that agrees with Python's `csv` default dialect.
///
/// - Quoted fields may hold delimiters, `""` (one quote) and line breaks.
/// - A record ends at LF, CRLF or a lone CR; a blank line is a record with no fields.
/// - A UTF-8 byte order mark at the start is skipped.
/// - Lenient like Python (`strict=False`): a quote inside an unquoted field is kept literally,
///   and text after a closing quote (`"ab"c`) is appended to the field.
/// - Unlike Python, a quoted field still open at the end of the input is an error that names
///   the line where the field began.
///
/// Memory is one read buffer (256 KiB) plus the current record; the fields of the current record
/// are byte slices valid until the next call to `next()`.
public final class CSVReader {
  /// The field separator.
  public let delimiter: UInt8
  /// File name for error messages.
  public let file: String
  let source: any ByteSource
  let chunkCapacity: Int
  /// All mutable state lives behind one pointer: no exclusivity checks on the hot path.
  let s: UnsafeMutablePointer<ReaderState>

  struct ReaderState {
    var chunk: UnsafeMutablePointer<UInt8>
    var chunkLength = 0
    var position = 0
    var atStreamStart = true
    var finished = false
    var record: UnsafeMutablePointer<UInt8>
    var recordCapacity: Int
    var recordLength = 0
    var ends: UnsafeMutablePointer<Int>
    var endsCapacity: Int
    var endsCount = 0
    var currentLine = 1
    var skipLF = false
    var previousCR = false
    var line = 0

    @inline(__always)
    mutating func endField() {
      if endsCount == endsCapacity {
        let bigger = UnsafeMutablePointer<Int>.allocate(capacity: endsCapacity * 2)
        bigger.update(from: ends, count: endsCount)
        ends.deallocate()
        ends = bigger
        endsCapacity *= 2
      }
      ends[endsCount] = recordLength
      endsCount += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeMutablePointer<UInt8>, _ count: Int) {
      if count == 0 { return }
      if recordLength + count > recordCapacity {
        var capacity = recordCapacity * 2
        while capacity < recordLength + count { capacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        bigger.update(from: record, count: recordLength)
        record.deallocate()
        record = bigger
        recordCapacity = capacity
      }
      (record + recordLength).update(from: bytes, count: count)
      recordLength += count
    }

    @inline(__always)
    mutating func endLine(_ byte: UInt8) {
      currentLine += 1
      if byte == 0x0D { skipLF = true }
    }
  }

  public init(source: any ByteSource, delimiter: UInt8 = 0x2C, file: String = "<input>", bufferSize: Int = 256 * 1024) {
    self.source = source
    self.delimiter = delimiter
    self.file = file
    chunkCapacity = max(16, bufferSize)
    s = .allocate(capacity: 1)
    s.initialize(
      to: ReaderState(
        chunk: .allocate(capacity: chunkCapacity), record: .allocate(capacity: 4096), recordCapacity: 4096,
        ends: .allocate(capacity: 64), endsCapacity: 64))
  }

  deinit {
    s.pointee.chunk.deallocate()
    s.pointee.record.deallocate()
    s.pointee.ends.deallocate()
    s.deinitialize(count: 1)
    s.deallocate()
  }

  /// 1-based physical line the current record starts on.
  public var line: Int { s.pointee.line }

  /// Number of fields in the current record (0 for a blank line).
  public var fieldCount: Int { s.pointee.endsCount }

  /// The bytes of field `index` (0-based) of the current record, valid until `next()`.
  @inline(__always)
  public func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    let st = s
    precondition(index >= 0 && index < st.pointee.endsCount, "field index out of range")
    let start = index == 0 ? 0 : st.pointee.ends[index - 1]
    return UnsafeBufferPointer(start: st.pointee.record + start, count: st.pointee.ends[index] - start)
  }

  /// Field `index` as a String (invalid UTF-8 is repaired with U+FFFD).
  public func string(_ index: Int) -> String { String(decoding: field(index), as: UTF8.self) }

  /// All fields of the current record as Strings.
  public var strings: [String] { (0..<fieldCount).map(string) }

  /// Advances to the next record; `false` at the end of the input.
  public func next() throws(ImportError) -> Bool {
    var st = s.pointee
    defer { s.pointee = st }
    st.recordLength = 0
    st.endsCount = 0
    if st.finished { return false }
    var state = State.startRecord
    var quoteLine = 0
    let d = delimiter
    let quote: UInt8 = 0x22
    while true {
      if st.position >= st.chunkLength {
        if try !refill(&st) {
          st.finished = true
          switch state {
          case .startRecord: return false
          case .inQuoted:
            let fieldStart = st.endsCount > 0 ? st.ends[st.endsCount - 1] : 0
            let raw = String(
              decoding: UnsafeBufferPointer(
                start: st.record + fieldStart, count: min(60, st.recordLength - fieldStart)),
              as: UTF8.self)
            throw .row(
              ImportIssue(
                kind: .unterminatedQuote, file: file, line: quoteLine, column: st.endsCount + 1, columnName: nil,
                rawValue: raw, message: "quoted field is never closed",
                hint: "a field starting with \" must end with \"; write a quote inside a quoted field as \"\""))
          default:
            st.endField()
            return true
          }
        }
        continue
      }
      let chunk = st.chunk
      let length = st.chunkLength
      switch state {
      case .startRecord:
        let b = chunk[st.position]
        if st.skipLF {
          st.skipLF = false
          if b == 0x0A {
            st.position += 1
            continue
          }
        }
        st.line = st.currentLine
        if b == 0x0D || b == 0x0A {
          st.position += 1
          st.endLine(b)
          return true
        }
        state = .startField
      case .startField:
        let b = chunk[st.position]
        if b == quote {
          st.position += 1
          quoteLine = st.currentLine
          st.previousCR = false
          state = .inQuoted
        } else if b == d {
          st.position += 1
          st.endField()
        } else if b == 0x0D || b == 0x0A {
          st.position += 1
          st.endField()
          st.endLine(b)
          return true
        } else {
          state = .inField
        }
      case .inField:
        var i = st.position
        while i < length {
          let c = chunk[i]
          if c == d || c == 0x0D || c == 0x0A { break }
          i += 1
        }
        st.append(chunk + st.position, i - st.position)
        st.position = i
        if i == length { continue }
        let c = chunk[i]
        st.position += 1
        st.endField()
        if c == d {
          state = .startField
        } else {
          st.endLine(c)
          return true
        }
      case .inQuoted:
        var i = st.position
        var line = st.currentLine
        var previousCR = st.previousCR
        while i < length {
          let c = chunk[i]
          if c == quote { break }
          if c == 0x0A {
            if !previousCR { line += 1 }
            previousCR = false
          } else if c == 0x0D {
            line += 1
            previousCR = true
          } else {
            previousCR = false
          }
          i += 1
        }
        st.currentLine = line
        st.previousCR = previousCR
        st.append(chunk + st.position, i - st.position)
        st.position = i
        if i == length { continue }
        st.position += 1
        state = .quoteInQuoted
      case .quoteInQuoted:
        let c = chunk[st.position]
        if c == quote {
          st.append(chunk + st.position, 1)
          st.position += 1
          st.previousCR = false
          state = .inQuoted
        } else if c == d {
          st.position += 1
          st.endField()
          state = .startField
        } else if c == 0x0D || c == 0x0A {
          st.position += 1
          st.endField()
          st.endLine(c)
          return true
        } else {
          state = .inField
        }
      }
    }
  }

  enum State { case startRecord, startField, inField, inQuoted, quoteInQuoted }

  func refill(_ st: inout ReaderState) throws(ImportError) -> Bool {
    st.position = 0
    st.chunkLength = 0
    while st.chunkLength == 0 {
      let n = try source.read(into: st.chunk, capacity: chunkCapacity)
      if n == 0 { return false }
      st.chunkLength = n
    }
    if st.atStreamStart {
      st.atStreamStart = false
      // Top up to at least 3 bytes so a BOM split across tiny reads is still seen.
      while st.chunkLength < 3 {
        let n = try source.read(into: st.chunk + st.chunkLength, capacity: chunkCapacity - st.chunkLength)
        if n == 0 { break }
        st.chunkLength += n
      }
      let c = st.chunk
      if st.chunkLength >= 3 && c[0] == 0xEF && c[1] == 0xBB && c[2] == 0xBF { st.position = 3 }
      if st.position >= st.chunkLength { return try refill(&st) }
    }
    return true
  }
}
