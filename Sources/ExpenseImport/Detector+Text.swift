import ExpenseCore

/// Detection's first stages: what the sample's bytes are. Each decides from the bytes alone,
/// before any column is looked at.
extension Detector {
  /// The sample as text to detect from: NUL padding at its end dropped (`run` drops it too, and
  /// says so; a sample that ends in NULs is trimmed even when the file goes on, and NULs before
  /// more text reach `run` as they are). Refuses an empty sample and a file of a kind that is
  /// not a statement (`FileKind`: a spreadsheet, an archive, a PDF …), by its first bytes.
  static func textSample(_ sample: [UInt8], file: String) throws(ImportError) -> [UInt8] {
    let sample = NULPadding.trimmed(sample)
    if sample.isEmpty {
      throw .undetectable(file: file, message: "the file is empty", hint: "export the statement again from the bank")
    }
    if let kind = FileKind.sniff(sample) { throw kind.refusal(file: file) }
    return sample
  }

  /// The encoding, and what decided it: `--encoding`, else the sample's bytes (`EncodingGuess`).
  /// Refuses a sample that is binary rather than text (`binaryContent`), which only a UTF-16
  /// file may look like.
  func chooseEncoding(_ sample: [UInt8], truncated: Bool) throws(ImportError) -> (TextEncoding, String) {
    let encoding: TextEncoding
    let encodingReason: String
    if let forced = options.encoding {
      encoding = forced
      encodingReason = "--encoding"
    } else {
      (encoding, encodingReason) = try EncodingGuess.detect(sample, truncated: truncated, file: file)
    }
    if encoding != .utf16le && encoding != .utf16be, let binary = Detector.binaryContent(sample) {
      throw .undetectable(
        file: file, message: "line \(binary.line): not a text file (\(binary.what))",
        hint: "export the statement from the bank as CSV (a spreadsheet can save a sheet as CSV)")
    }
    return (encoding, encodingReason)
  }

  /// How a field's bytes become text, from the encoding, what decided it and the sample:
  /// a UTF-8 guess made from plain ASCII may meet Windows-1252 later (`utf8Fallback`), while
  /// once the file has shown real UTF-8 (in the sample or before the bad bytes), a field with
  /// invalid bytes is damage and its row is refused; `--replace-invalid` replaces them instead.
  func fieldText(_ sample: [UInt8], encoding: TextEncoding, reason encodingReason: String) -> FieldText {
    var fieldText: FieldText
    switch encoding {
    case .utf8:
      fieldText =
        options.encoding == nil && encodingReason == "valid UTF-8" && !sample.contains(where: { $0 >= 0x80 })
        ? .utf8Fallback : .utf8Strict
    case .windows1252: fieldText = .windows1252
    case .latin1: fieldText = .latin1
    default: fieldText = .utf8Strict  // UTF-16 and the iconv encodings arrive as UTF-8
    }
    if options.replaceInvalid == true && (fieldText == .utf8Strict || fieldText == .utf8Fallback) {
      fieldText = .utf8Replacing
    }
    return fieldText
  }

  /// The sample read as UTF-8 (transcoded from `encoding`), for a reader of its records.
  static func transcoded(_ sample: [UInt8], _ encoding: TextEncoding) throws(ImportError) -> any ByteSource {
    try encoding.transcoder(MemorySource(sample))
  }

  /// The delimiter: `--delimiter`, else the candidate (`candidates`) that splits the most of
  /// the first 400 records after the skipped lines into the same number of fields, weighted by
  /// how many fields that is.
  func chooseDelimiter(_ sample: [UInt8], encoding: TextEncoding, skipLines: Int) throws(ImportError) -> UInt8 {
    if let given = options.delimiter { return try Detector.parseDelimiter(given) }
    var best: (score: Int, width: Int, byte: UInt8) = (-1, 0, 0x2C)
    let transcoded = encoding == .utf16le || encoding == .utf16be || encoding.iconvName != nil
    for candidate in Detector.candidates {
      // Without the byte in the sample no record has two fields: nothing to count.
      if !transcoded && !sample.withUnsafeBufferPointer({ Detector.contains($0, candidate) }) { continue }
      let reader = CSVReader(source: try Detector.transcoded(sample, encoding), delimiter: candidate, file: file)
      var counts: [Int: Int] = [:]
      var seen = 0
      while seen < 400, (try? reader.next()) == true {
        if reader.line <= skipLines || reader.fieldCount < 2 { continue }
        counts[reader.fieldCount, default: 0] += 1
        seen += 1
      }
      guard let mode = counts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { continue }
      // Consistent rows times extra fields: a comma inside German amounts ("-45,67") splits
      // every row in two, but `;` splits them in twelve.
      let score = mode.value * (mode.key - 1)
      if score > best.score || (score == best.score && mode.key > best.width) {
        best = (score, mode.key, candidate)
      }
    }
    return best.byte
  }

  /// The sample's records after the skipped lines, blank ones left out, as text. An
  /// unterminated quote ends them (`run` reports it); the last record of a sample cut short
  /// may be cut too, so it is dropped. Refuses a sample without a record.
  func sampleRecords(
    _ sample: [UInt8], encoding: TextEncoding, fieldText: FieldText, delimiter: UInt8, skipLines: Int,
    truncated: Bool
  ) throws(ImportError) -> [Record] {
    var decoder = TextDecoder(mode: fieldText == .utf8Strict ? .utf8Fallback : fieldText)
    var records: [Record] = []
    let reader = CSVReader(source: try Detector.transcoded(sample, encoding), delimiter: delimiter, file: file)
    do {
      while try reader.next() {
        if reader.line <= skipLines { continue }
        var fields: [String] = []
        fields.reserveCapacity(reader.fieldCount)
        for i in 0..<reader.fieldCount { fields.append(decoder.decode(reader.field(i)) ?? reader.string(i)) }
        if fields.allSatisfy(Detector.isBlank) { continue }
        records.append(Record(line: reader.line, fields: fields))
      }
    } catch {
      // An unterminated quote in the sample: detect from what came before; `run` reports it.
    }
    if truncated && records.count > 1 { records.removeLast() }
    guard !records.isEmpty else {
      throw .undetectable(
        file: file, message: "no rows found", hint: "check the file, or use --skip-lines if it only has a preamble")
    }
    return records
  }
}
