import CUchardet

/// Asks Debian's libuchardet (Mozilla's universal charset detector) what encoding a sample is in.
///
/// Why a library: telling Windows-1250 Czech from Windows-1252 French, or KOI8-R from
/// Windows-1251, takes letter-frequency models of each language and encoding; hand-written
/// rules only ever covered the cases someone had already seen. uchardet is what Firefox's
/// detector grew into, packaged on every Linux distribution (`libuchardet-dev`).
///
/// It reads the detection sample only (the first 1 MiB, already in memory), never the whole
/// file, so its cost does not grow with the file.
enum Uchardet {
  /// uchardet's name for the sample's encoding ("WINDOWS-1250", "SHIFT_JIS", ...), or nil when
  /// it has no answer.
  static func charset(of sample: [UInt8]) -> String? {
    guard let detector = uchardet_new() else { return nil }
    defer { uchardet_delete(detector) }
    let status = sample.withUnsafeBufferPointer { p -> Int32 in
      guard let base = p.baseAddress else { return 0 }
      return base.withMemoryRebound(to: CChar.self, capacity: p.count) { uchardet_handle_data(detector, $0, p.count) }
    }
    if status != 0 { return nil }
    uchardet_data_end(detector)
    guard let name = uchardet_get_charset(detector) else { return nil }
    let answer = String(cString: name)
    return answer.isEmpty || answer == "unknown" ? nil : answer
  }
}
