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
/// Memory is one read buffer (256 KiB) plus room to carry the current record over a refill; the
/// fields of the current record are byte slices of that buffer, valid until the next call to
/// `next()`. Unquoted fields are not copied at all; a quoted field with `""` in it (or text after
/// its closing quote) is unescaped in place, which only ever moves bytes backwards.
public final class CSVReader {
  /// The field separator.
  public let delimiter: UInt8
  /// File name for error messages.
  public let file: String
  let source: any ByteSource
  let chunkCapacity: Int
  /// All mutable state lives behind one pointer: no exclusivity checks on the hot path.
  let s: UnsafeMutablePointer<ReaderState>

  /// Offsets are from `buffer`. The buffer is `carry` bytes of room for a record that is cut by
  /// the end of a chunk, then the chunk itself (always read with the full `chunkCapacity`).
  struct ReaderState {
    var buffer: UnsafeMutablePointer<UInt8>
    var carry: Int
    /// One past the last byte read.
    var end: Int
    var position: Int
    var recordStart = 0
    var atStreamStart = true
    var finished = false
    /// Start and end offset of each field of the current record.
    var bounds: UnsafeMutablePointer<Int>
    var boundsCapacity: Int
    var fieldCount = 0
    /// Offsets of the field being read: its first byte and one past its (unescaped) last byte.
    var fieldStart = 0
    var fieldEnd = 0
    var currentLine = 1
    var skipLF = false
    var previousCR = false
    var line = 0
    /// The current record grew past `maxRecordBytes`: its bytes are being dropped.
    var overlong = false

    @inline(__always)
    mutating func endField() {
      if fieldCount == boundsCapacity { growBounds() }
      bounds[2 &* fieldCount] = fieldStart
      bounds[2 &* fieldCount &+ 1] = fieldEnd
      fieldCount &+= 1
    }

    mutating func growBounds() {
      let bigger = UnsafeMutablePointer<Int>.allocate(capacity: boundsCapacity * 4)
      bigger.update(from: bounds, count: fieldCount * 2)
      bounds.deallocate()
      bounds = bigger
      boundsCapacity *= 2
    }

    @inline(__always)
    mutating func endLine(_ byte: UInt8) {
      currentLine &+= 1
      if byte == 0x0D { skipLF = true }
    }
  }

  public init(source: any ByteSource, delimiter: UInt8 = 0x2C, file: String = "<input>", bufferSize: Int = 256 * 1024) {
    self.source = source
    self.delimiter = delimiter
    self.file = file
    chunkCapacity = max(16, bufferSize)
    let carry = 4096
    s = .allocate(capacity: 1)
    s.initialize(
      to: ReaderState(
        buffer: CSVReader.allocateBuffer(carry + chunkCapacity), carry: carry, end: carry, position: carry,
        bounds: .allocate(capacity: 128), boundsCapacity: 64))
  }

  deinit {
    s.pointee.buffer.deallocate()
    s.pointee.bounds.deallocate()
    s.deinitialize(count: 1)
    s.deallocate()
  }

  /// 1-based physical line the current record starts on.
  public var line: Int { s.pointee.line }

  /// Number of fields in the current record (0 for a blank line).
  public var fieldCount: Int { s.pointee.fieldCount }

  /// The bytes of field `index` (0-based) of the current record, valid until `next()`.
  @inline(__always)
  public func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    let st = s
    precondition(index >= 0 && index < st.pointee.fieldCount, "field index out of range")
    let start = st.pointee.bounds[2 &* index]
    return UnsafeBufferPointer(start: st.pointee.buffer + start, count: st.pointee.bounds[2 &* index &+ 1] &- start)
  }

  /// Field `index` as a String (invalid UTF-8 is repaired with U+FFFD).
  public func string(_ index: Int) -> String { String(decoding: field(index), as: UTF8.self) }

  /// All fields of the current record as Strings.
  public var strings: [String] { (0..<fieldCount).map(string) }

  /// The longest record kept in memory; a longer one is read to its end and reported.
  public var maxRecordBytes = ImportLimits.maxRecordBytes
  /// The first bytes of a record that grew too long (for the message).
  var overlongPreview: [UInt8] = []
  /// The 1-based field that was being read when the record passed the limit.
  var overlongColumn = 1

  /// Advances to the next record; `false` at the end of the input. A record longer than
  /// `maxRecordBytes` throws a `.recordTooLong` issue, after which reading can go on.
  public func next() throws(ImportError) -> Bool {
    let more = try next(&s.pointee)
    if s.pointee.overlong { try dropOverlongRecord() }
    return more
  }

  func dropOverlongRecord() throws(ImportError) {
    s.pointee.overlong = false
    s.pointee.fieldCount = 0
    let shown = String(decoding: overlongPreview, as: UTF8.self) + "… (more than \(ImportLimits.size(maxRecordBytes)))"
    throw .row(
      ImportIssue(
        kind: .recordTooLong, file: file, line: s.pointee.line, column: overlongColumn, columnName: nil,
        rawValue: shown,
        message: "the record is longer than \(ImportLimits.size(maxRecordBytes))",
        hint: overlongPreview.contains(0x22)
          ? "a quote that is never closed makes the rest of the file one field; fix the file, or --skip-invalid skips the record"
          : "no bank export has a row this long: the file may be damaged; --skip-invalid skips the record"
      ))
  }

  /// The index of the first field longer than `limit` bytes in the current record, if any.
  /// Cheap when no field is: one comparison of the record's length.
  public func firstField(longerThan limit: Int) -> Int? {
    let st = s
    if st.pointee.position - st.pointee.recordStart <= limit { return nil }
    for index in 0..<st.pointee.fieldCount
    where st.pointee.bounds[2 &* index &+ 1] - st.pointee.bounds[2 &* index] > limit {
      return index
    }
    return nil
  }

  /// The state is `inout` (exclusive, so its fields can live in registers) rather than a copy
  /// made and written back on every call.
  func next(_ st: inout ReaderState) throws(ImportError) -> Bool {
    st.fieldCount = 0
    if st.finished { return false }
    var state = State.startRecord
    var quoteLine = 0
    let d = delimiter
    let quote: UInt8 = 0x22
    records: while true {
      if st.position >= st.end {
        if try !refill(&st, keepRecord: state != .startRecord) {
          st.finished = true
          switch state {
          case .startRecord: return false
          case .inQuoted:
            let raw = String(
              decoding: UnsafeBufferPointer(
                start: st.buffer + st.fieldStart, count: min(60, st.fieldEnd - st.fieldStart)),
              as: UTF8.self)
            throw .row(
              ImportIssue(
                kind: .unterminatedQuote, file: file, line: quoteLine, column: st.fieldCount + 1, columnName: nil,
                rawValue: raw, message: "quoted field is never closed",
                hint: "a field starting with \" must end with \"; write a quote inside a quoted field as \"\""))
          case .startField:
            st.fieldStart = st.position
            st.fieldEnd = st.position
            st.endField()
            return true
          default:
            st.endField()
            return true
          }
        }
        continue
      }
      let buffer = st.buffer
      let end = st.end
      switch state {
      case .startRecord:
        let b = buffer[st.position]
        if st.skipLF {
          st.skipLF = false
          if b == 0x0A {
            st.position &+= 1
            continue
          }
        }
        st.line = st.currentLine
        st.recordStart = st.position
        if b == 0x0D || b == 0x0A {
          st.position &+= 1
          st.endLine(b)
          return true
        }
        state = .startField
        fallthrough
      case .startField:
        let b = buffer[st.position]
        if b == quote {
          st.position &+= 1
          quoteLine = st.currentLine
          st.previousCR = false
          st.fieldStart = st.position
          st.fieldEnd = st.position
          state = .inQuoted
          continue
        }
        st.fieldStart = st.position
        st.fieldEnd = st.position
        if b == d {
          st.position &+= 1
          st.endField()
        } else if b == 0x0D || b == 0x0A {
          st.position &+= 1
          st.endField()
          st.endLine(b)
          return true
        } else {
          state = .inField
          fallthrough
        }
      case .inField:
        if st.fieldEnd == st.position {
          // A plain field (nothing moved back): 8 bytes at a time, on through the plain fields
          // after it, until a line end, a field that starts with a quote or the end of the chunk.
          // Locals rather than fields of `st`, so that the stores through `bounds` do not send
          // them back to memory.
          var i = st.position
          var fieldStart = st.fieldStart
          var count = st.fieldCount
          var bounds = st.bounds
          let delimiters = UInt64(d) &* CSVReader.ones
          while i < end {
            let word = UInt64(littleEndian: UnsafeRawPointer(buffer + i).loadUnaligned(as: UInt64.self))
            // Delimiters, and bytes below 0x0E: CR and LF, and other controls that are skipped.
            var stops = CSVReader.zeroBytes(word ^ delimiters) | CSVReader.below0E(word)
            if end &- i < 8 { stops &= (1 &<< ((end &- i) &<< 3)) &- 1 }
            while stops != 0 {
              let k = i &+ stops.trailingZeroBitCount &>> 3
              let c = buffer[k]
              if c != d && c != 0x0D && c != 0x0A {
                stops &= stops &- 1
                continue
              }
              if count == st.boundsCapacity {
                st.fieldCount = count
                st.growBounds()
                bounds = st.bounds
              }
              bounds[2 &* count] = fieldStart
              bounds[2 &* count &+ 1] = k
              count &+= 1
              let next = k &+ 1
              if c != d {
                st.fieldCount = count
                st.position = next
                st.endLine(c)
                return true
              }
              fieldStart = next
              if next == end || buffer[next] == quote {
                st.fieldCount = count
                st.position = next
                st.fieldStart = next
                st.fieldEnd = next
                state = .startField
                continue records
              }
              stops &= stops &- 1
            }
            i &+= 8
          }
          st.fieldCount = count
          st.fieldStart = fieldStart
          st.position = end
          st.fieldEnd = end
          continue
        }
        // After a closing quote (`"ab"c`): the rest of the field moves back to follow the text.
        let from = st.position
        let i = CSVReader.scan(buffer, from, end, d)
        (buffer + st.fieldEnd).update(from: buffer + from, count: i &- from)
        st.fieldEnd &+= i &- from
        st.position = i
        if i == end { continue }
        let c = buffer[i]
        st.position &+= 1
        st.endField()
        if c == d {
          state = .startField
        } else {
          st.endLine(c)
          return true
        }
      case .inQuoted:
        let from = st.position
        var i = from
        var line = st.currentLine
        var previousCR = st.previousCR
        while true {
          // Only quotes and line ends matter here (line ends for the line count).
          let next = CSVReader.scan(buffer, i, end, quote)
          if next != i { previousCR = false }
          i = next
          if i == end { break }
          let c = buffer[i]
          if c == quote { break }
          if c == 0x0A {
            if !previousCR { line &+= 1 }
            previousCR = false
          } else {
            line &+= 1
            previousCR = true
          }
          i &+= 1
        }
        st.currentLine = line
        st.previousCR = previousCR
        if st.fieldEnd != from { (buffer + st.fieldEnd).update(from: buffer + from, count: i &- from) }
        st.fieldEnd &+= i &- from
        st.position = i
        if i == end { continue }
        st.position &+= 1
        state = .quoteInQuoted
      case .quoteInQuoted:
        let c = buffer[st.position]
        if c == quote {
          buffer[st.fieldEnd] = quote
          st.fieldEnd &+= 1
          st.position &+= 1
          st.previousCR = false
          state = .inQuoted
        } else if c == d {
          st.position &+= 1
          st.endField()
          state = .startField
        } else if c == 0x0D || c == 0x0A {
          st.position &+= 1
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

  /// Bytes of padding after the chunk, so `scan` may load 8 bytes at any offset before `end`.
  static let padding = 8

  /// A read buffer of `count` bytes plus the padding, zeroed (the word loads may read past
  /// `end`; what they see there is masked off, but it is never uninitialized memory).
  static func allocateBuffer(_ count: Int) -> UnsafeMutablePointer<UInt8> {
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: count + padding)
    buffer.initialize(repeating: 0, count: count + padding)
    return buffer
  }

  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let crs: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
  static let lfs: UInt64 = 0x0A0A_0A0A_0A0A_0A0A

  /// The high bit of each byte of `x` that is zero, and no other bit.
  @inline(__always)
  static func zeroBytes(_ x: UInt64) -> UInt64 {
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return ~(((x & low) &+ low) | x | low)
  }

  /// The high bit of each byte of `x` that is below 0x0E, and no other bit.
  @inline(__always)
  static func below0E(_ x: UInt64) -> UInt64 {
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return ~(((x & low) &+ 0x7272_7272_7272_7272) | x | low)
  }

  /// The offset of the first `byte`, CR or LF in `from..<end`, or `end`; 8 bytes at a time.
  @inline(__always)
  static func scan(_ buffer: UnsafeMutablePointer<UInt8>, _ from: Int, _ end: Int, _ byte: UInt8) -> Int {
    let highs: UInt64 = 0x8080_8080_8080_8080
    let bytes = UInt64(byte) &* ones
    var i = from
    while i < end {
      let word = UInt64(littleEndian: UnsafeRawPointer(buffer + i).loadUnaligned(as: UInt64.self))
      let x = word ^ bytes
      let y = word ^ crs
      let z = word ^ lfs
      // The lowest flagged byte of each term is exact (a borrow only flags bytes above a match).
      let found = ((x &- ones) & ~x | (y &- ones) & ~y | (z &- ones) & ~z) & highs
      if found != 0 {
        let at = i &+ found.trailingZeroBitCount &>> 3
        return at < end ? at : end
      }
      i &+= 8
    }
    return end
  }

  /// Reads the next chunk. With `keepRecord`, the bytes of the record in progress move to just
  /// before the chunk (the carry area grows if they do not fit) and every offset moves with them.
  func refill(_ st: inout ReaderState, keepRecord: Bool) throws(ImportError) -> Bool {
    if keepRecord {
      var kept = st.end - st.recordStart
      if kept > maxRecordBytes || st.overlong {
        // Too long to keep: drop what is buffered and read on to the record's end (memory stays
        // at the limit whatever the file holds); `next()` then reports the record.
        if !st.overlong {
          overlongPreview = Array(UnsafeBufferPointer(start: st.buffer + st.recordStart, count: min(48, kept)))
          overlongColumn = st.fieldCount + 1
        }
        st.overlong = true
        st.recordStart = st.end
        st.fieldStart = st.end
        st.fieldEnd = st.end
        st.fieldCount = 0
        kept = 0
      }
      if kept > st.carry {
        var carry = st.carry * 2
        while carry < kept { carry *= 2 }
        let bigger = CSVReader.allocateBuffer(carry + chunkCapacity)
        (bigger + carry - kept).update(from: st.buffer + st.recordStart, count: kept)
        st.buffer.deallocate()
        st.buffer = bigger
        st.carry = carry
      } else if st.recordStart != st.carry - kept {
        (st.buffer + st.carry - kept).update(from: st.buffer + st.recordStart, count: kept)
      }
      let delta = st.carry - kept - st.recordStart
      st.recordStart += delta
      st.fieldStart += delta
      st.fieldEnd += delta
      for i in 0..<(2 * st.fieldCount) { st.bounds[i] += delta }
    }
    let chunk = st.buffer + st.carry
    st.position = st.carry
    st.end = st.carry
    var length = 0
    while length == 0 {
      let n = try source.read(into: chunk, capacity: chunkCapacity)
      if n == 0 { return false }
      length = n
    }
    if st.atStreamStart {
      st.atStreamStart = false
      // Top up to at least 3 bytes so a BOM split across tiny reads is still seen.
      while length < 3 {
        let n = try source.read(into: chunk + length, capacity: chunkCapacity - length)
        if n == 0 { break }
        length += n
      }
      st.end = st.carry + length
      if length >= 3 && chunk[0] == 0xEF && chunk[1] == 0xBB && chunk[2] == 0xBF { st.position += 3 }
      if st.position >= st.end { return try refill(&st, keepRecord: false) }
      return true
    }
    st.end = st.carry + length
    return true
  }
}
