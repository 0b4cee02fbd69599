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
  let quote: UInt8 = 0x22

  var chunk: UnsafeMutablePointer<UInt8>
  let chunkCapacity: Int
  var chunkLength = 0
  var position = 0
  var atStreamStart = true
  var finished = false

  var record: UnsafeMutablePointer<UInt8>
  var recordCapacity = 4096
  var recordLength = 0
  var ends: [Int] = []

  var currentLine = 1
  var skipLF = false
  var previousCR = false

  /// 1-based physical line the current record starts on.
  public private(set) var line = 0

  public init(source: any ByteSource, delimiter: UInt8 = 0x2C, file: String = "<input>", bufferSize: Int = 256 * 1024) {
    self.source = source
    self.delimiter = delimiter
    self.file = file
    chunkCapacity = max(16, bufferSize)
    chunk = .allocate(capacity: chunkCapacity)
    record = .allocate(capacity: recordCapacity)
    ends.reserveCapacity(64)
  }

  deinit {
    chunk.deallocate()
    record.deallocate()
  }

  /// Number of fields in the current record (0 for a blank line).
  public var fieldCount: Int { ends.count }

  /// The bytes of field `index` (0-based) of the current record, valid until `next()`.
  @inline(__always)
  public func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    let start = index == 0 ? 0 : ends[index - 1]
    return UnsafeBufferPointer(start: record + start, count: ends[index] - start)
  }

  /// Field `index` as a String (invalid UTF-8 is repaired with U+FFFD).
  public func string(_ index: Int) -> String { String(decoding: field(index), as: UTF8.self) }

  /// All fields of the current record as Strings.
  public var strings: [String] { (0..<fieldCount).map(string) }

  /// Advances to the next record; `false` at the end of the input.
  public func next() throws(ImportError) -> Bool {
    recordLength = 0
    ends.removeAll(keepingCapacity: true)
    if finished { return false }
    var state = State.startRecord
    var quoteLine = 0
    while true {
      if position >= chunkLength {
        if try !refill() {
          finished = true
          switch state {
          case .startRecord: return false
          case .inQuoted:
            throw .row(
              ImportIssue(
                kind: .unterminatedQuote, file: file, line: quoteLine, column: ends.count + 1, columnName: nil,
                rawValue: String(decoding: UnsafeBufferPointer(start: record + (ends.last ?? 0), count: min(60, recordLength - (ends.last ?? 0))), as: UTF8.self),
                message: "quoted field is never closed", hint: "a field starting with \" must end with \"; write a quote inside a quoted field as \"\""))
          default:
            ends.append(recordLength)
            return true
          }
        }
        continue
      }
      switch state {
      case .startRecord:
        let b = chunk[position]
        if skipLF {
          skipLF = false
          if b == 0x0A {
            position += 1
            continue
          }
        }
        line = currentLine
        if b == 0x0D || b == 0x0A {
          position += 1
          endLine(b)
          return true
        }
        state = .startField
      case .startField:
        let b = chunk[position]
        if b == quote {
          position += 1
          quoteLine = currentLine
          previousCR = false
          state = .inQuoted
        } else if b == delimiter {
          position += 1
          ends.append(recordLength)
        } else if b == 0x0D || b == 0x0A {
          position += 1
          ends.append(recordLength)
          endLine(b)
          return true
        } else {
          state = .inField
        }
      case .inField:
        var i = position
        let d = delimiter
        while i < chunkLength {
          let c = chunk[i]
          if c == d || c == 0x0D || c == 0x0A { break }
          i += 1
        }
        append(chunk + position, i - position)
        position = i
        if i == chunkLength { continue }
        let c = chunk[i]
        position += 1
        ends.append(recordLength)
        if c == d {
          state = .startField
        } else {
          endLine(c)
          return true
        }
      case .inQuoted:
        var i = position
        while i < chunkLength {
          let c = chunk[i]
          if c == quote { break }
          if c == 0x0A {
            if !previousCR { currentLine += 1 }
            previousCR = false
          } else if c == 0x0D {
            currentLine += 1
            previousCR = true
          } else {
            previousCR = false
          }
          i += 1
        }
        append(chunk + position, i - position)
        position = i
        if i == chunkLength { continue }
        position += 1
        state = .quoteInQuoted
      case .quoteInQuoted:
        let c = chunk[position]
        if c == quote {
          append(chunk + position, 1)
          position += 1
          previousCR = false
          state = .inQuoted
        } else if c == delimiter {
          position += 1
          ends.append(recordLength)
          state = .startField
        } else if c == 0x0D || c == 0x0A {
          position += 1
          ends.append(recordLength)
          endLine(c)
          return true
        } else {
          state = .inField
        }
      }
    }
  }

  enum State { case startRecord, startField, inField, inQuoted, quoteInQuoted }

  @inline(__always)
  func endLine(_ byte: UInt8) {
    currentLine += 1
    if byte == 0x0D { skipLF = true }
  }

  @inline(__always)
  func append(_ bytes: UnsafeMutablePointer<UInt8>, _ count: Int) {
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

  func refill() throws(ImportError) -> Bool {
    position = 0
    chunkLength = 0
    while chunkLength == 0 {
      let n = try source.read(into: chunk, capacity: chunkCapacity)
      if n == 0 { return false }
      chunkLength = n
    }
    if atStreamStart {
      atStreamStart = false
      // Top up to at least 3 bytes so a BOM split across tiny reads is still seen.
      while chunkLength < 3 {
        let n = try source.read(into: chunk + chunkLength, capacity: chunkCapacity - chunkLength)
        if n == 0 { break }
        chunkLength += n
      }
      if chunkLength >= 3 && chunk[0] == 0xEF && chunk[1] == 0xBB && chunk[2] == 0xBF { position = 3 }
      if position >= chunkLength { return try refill() }
    }
    return true
  }
}
