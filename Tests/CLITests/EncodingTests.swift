import Foundation
import Glibc
import Testing

/// Legacy encodings: named with --encoding they are read through iconv; not named, a file that
/// reads as garbage in Windows-1252 is refused with the candidates, never stored garbled.
@Suite struct EncodingTests {
  /// Writes `text` in `encoding` (an iconv name), converted by the C library as a bank's
  /// software would have written it.
  func write(_ cli: CLI, _ name: String, _ text: String, _ encoding: String) throws -> String {
    let converter = iconv_open(encoding, "UTF-8")
    try #require(converter != iconv_t(bitPattern: -1), "no converter for \(encoding)")
    defer { iconv_close(converter) }
    var input = Array(text.utf8CString.dropLast())
    var output = [CChar](repeating: 0, count: input.count * 4)
    let written = input.withUnsafeMutableBufferPointer { inBuffer in
      output.withUnsafeMutableBufferPointer { outBuffer -> Int in
        var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
        var inLeft = inBuffer.count
        var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
        var outLeft = outBuffer.count
        guard iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1 else { return -1 }
        return outBuffer.count - outLeft
      }
    }
    try #require(written > 0)
    let path = cli.directory.appendingPathComponent(name).path
    try Data(output.prefix(written).map { UInt8(bitPattern: $0) }).write(to: URL(fileURLWithPath: path))
    return path
  }

  static let japanese = "Date,Description,Amount\n2026-10-01,山田下社 株式会社,-540\n2026-10-03,東京電力,-12800\n"

  @Test(arguments: [("euc-jp", "EUC-JP", "euc-jp"), ("sjis", "SHIFT_JIS", "shift_jis")])
  func japaneseFilesAreReadWhenNamedAndDetectedWhenNot(_ flag: String, _ encoding: String, _ name: String)
    throws
  {
    let cli = try CLI()
    let file = try write(cli, "jp.csv", Self.japanese, encoding)
    let detected = try cli.run(["import", file, "--currency", "JPY", "--dry-run"])
    #expect(detected.code == 0, "\(detected.stderr)")
    #expect(detected.stdout.contains("encoding:      \(name) (detected by uchardet)"), "\(detected.stdout)")
    let result = try cli.run(["import", file, "--encoding", flag, "--currency", "JPY"])
    #expect(result.code == 0, "\(result.stderr)")
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    let descriptions = Set(rows.compactMap { $0["description"] as? String })
    #expect(descriptions.isSuperset(of: ["山田下社 株式会社", "東京電力"]))
  }

  @Test func cyrillicWindows1251() throws {
    let cli = try CLI()
    let file = try write(
      cli, "ru.csv", "Date,Description,Amount\n2026-10-13,Москва магазин,-540.00\n", "CP1251")
    let detected = try cli.run(["import", file])
    #expect(detected.code == 0, "\(detected.stderr)")
    #expect(detected.stdout.contains("Encoding: windows-1251 (detected by uchardet)"), "\(detected.stdout)")
    #expect(try cli.run(["import", file, "--encoding", "cp1251"]).code == 0)
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(rows.first?["description"] as? String == "Москва магазин")
  }

  /// uchardet takes this short Korean file for Arabic Windows-1256, which the importer does not
  /// read: refused, naming the encodings that read it cleanly, nothing stored.
  @Test func anEncodingTheImporterDoesNotReadIsRefusedWithCandidates() throws {
    let cli = try CLI()
    let file = try write(cli, "kr.csv", "Date,Description,Amount\n2026-10-13,편의점,-5.00\n", "CP949")
    #expect(try cli.run(["add", "2026-01-01", "1", "existing"]).code == 0)
    let before = try cli.databaseBytes()
    let refused = try cli.run(["import", file])
    #expect(refused.code == 65, "\(refused.stderr)")
    #expect(
      refused.stderr.contains(
        "kr.csv: line 2: the file is not UTF-8, and uchardet takes it for WINDOWS-1256, which the importer does not read"
      ),
      "\(refused.stderr)")
    #expect(refused.stderr.contains("--encoding euc-kr"), "names the candidate: \(refused.stderr)")
    #expect(refused.stderr.contains("iconv -f WINDOWS-1256 -t UTF-8"), "\(refused.stderr)")
    #expect(try cli.databaseBytes() == before, "nothing stored garbled")
    #expect(try cli.run(["import", file, "--encoding", "euc-kr", "--currency", "KRW"]).code == 0)
  }

  @Test func unknownEncodingsAreUsageErrors() throws {
    let cli = try CLI()
    let file = try cli.file("a.csv", "Date,Description,Amount\n2026-10-13,x,-1.00\n")
    let result = try cli.run(["import", file, "--encoding", "klingon"])
    #expect(result.code == 64)
    #expect(result.stderr.contains("shift_jis"))
  }
}
