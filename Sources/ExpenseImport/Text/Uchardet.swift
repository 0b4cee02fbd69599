#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Asks Debian's libuchardet (Mozilla's universal charset detector) what encoding a sample is in.
///
/// Why a library: telling Windows-1250 Czech from Windows-1252 French, or KOI8-R from
/// Windows-1251, takes letter-frequency models of each language and encoding; hand-written
/// rules only ever covered the cases someone had already seen. uchardet is what Firefox's
/// detector grew into, packaged on every Linux distribution (`libuchardet0`).
///
/// Why it is loaded at run time (`dlopen`) rather than linked: the build then needs no extra
/// headers, so `swift run expenses demo` works on a machine that has only the toolchain and
/// SQLite. Without the library, `charset(of:)` has no answer and the importer decides between
/// the Western and Central European code pages by their letters, and says so (`isAvailable`).
///
/// It reads the detection sample only (the first 1 MiB, already in memory), never the whole
/// file, so its cost does not grow with the file.
enum Uchardet {
  /// The five functions of uchardet's C API the importer calls.
  private struct Library: @unchecked Sendable {
    typealias New = @convention(c) () -> OpaquePointer?
    typealias HandleData = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int) -> Int32
    typealias Detector = @convention(c) (OpaquePointer?) -> Void
    typealias Charset = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    let new: New
    let handleData: HandleData
    let dataEnd: Detector
    let charset: Charset
    let delete: Detector
  }

  private static let library: Library? = load()

  /// Whether libuchardet could be loaded on this machine.
  static var isAvailable: Bool { library != nil }

  private static func load() -> Library? {
    for name in ["libuchardet.so.0", "libuchardet.so", "libuchardet.dylib"] {
      guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
      guard let new = dlsym(handle, "uchardet_new"), let handleData = dlsym(handle, "uchardet_handle_data"),
        let dataEnd = dlsym(handle, "uchardet_data_end"), let charset = dlsym(handle, "uchardet_get_charset"),
        let delete = dlsym(handle, "uchardet_delete")
      else { continue }
      return Library(
        new: unsafeBitCast(new, to: Library.New.self),
        handleData: unsafeBitCast(handleData, to: Library.HandleData.self),
        dataEnd: unsafeBitCast(dataEnd, to: Library.Detector.self),
        charset: unsafeBitCast(charset, to: Library.Charset.self),
        delete: unsafeBitCast(delete, to: Library.Detector.self))
    }
    return nil
  }

  /// uchardet's name for the sample's encoding ("WINDOWS-1250", "SHIFT_JIS", ...), or nil when
  /// it has no answer or is not installed.
  static func charset(of sample: [UInt8]) -> String? {
    guard let library, let detector = library.new() else { return nil }
    defer { library.delete(detector) }
    let status = sample.withUnsafeBufferPointer { p -> Int32 in
      guard let base = p.baseAddress else { return 0 }
      return base.withMemoryRebound(to: CChar.self, capacity: p.count) { library.handleData(detector, $0, p.count) }
    }
    if status != 0 { return nil }
    library.dataEnd(detector)
    guard let name = library.charset(detector) else { return nil }
    let answer = String(cString: name)
    return answer.isEmpty || answer == "unknown" ? nil : answer
  }
}
