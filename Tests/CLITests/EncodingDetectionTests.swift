import Foundation
import Testing

/// Files that are not UTF-8 are read in the encoding uchardet names (the fixtures were written
/// by Python's codecs, not by the iconv the importer reads with), the summary says which and by
/// what, and `--encoding` still overrides.
@Suite struct EncodingDetectionTests {
  static let cases: [(file: String, encoding: String, descriptions: [String])] = [
    (
      "cz_windows1250.csv", "windows-1250",
      [
        "Převod na účet paní Šťastné", "Nákup Žabka Řečkovice", "Lékárna U Zlatého hada",
        "Čerpací stanice Benzina Třebíč", "Výběr z bankomatu Děčín", "Nájemné říjen",
      ]
    ),
    (
      "pl_windows1250.csv", "windows-1250",
      [
        "Zakup Biedronka Łódź", "Przelew od Michał Wiśniewski", "Opłata za kartę", "Żabka Świętokrzyska źródło",
        "Stacja paliw Orlen Gdańsk",
      ]
    ),
    (
      "de_windows1252.csv", "windows-1252",
      ["Bäckerei Müller Köln", "Überweisung Miete „Oktober“", "Straßenbahn Fahrkarte", "Café Größe – Frühstück"]
    ),
    (
      "fr_iso885915.csv", "iso-8859-15",
      ["Épicerie fine 5 €", "Boulangerie Crème brûlée", "Librairie Œuvres complètes", "Café de la gare, cœur de ville"]
    ),
    ("ru_windows1251.csv", "windows-1251", ["Покупка Пятёрочка Москва", "Перевод от Иванова", "Оплата связи МТС"]),
    ("ru_koi8r.csv", "koi8-r", ["Покупка Пятёрочка Москва", "Перевод от Иванова", "Оплата связи МТС"]),
    ("jp_shiftjis.csv", "shift_jis", ["セブンイレブン 東京駅店", "東京電力エナジーパートナー", "株式会社山田商店"]),
  ]

  @Test(arguments: cases.map(\.file))
  func legacyEncodingsAreDetectedByUchardet(_ file: String) throws {
    let known = try #require(Self.cases.first { $0.file == file })
    let cli = try CLI()
    let path = CLI.fixture("encodings/\(file)")
    let currency = file.hasPrefix("jp") ? "JPY" : file.hasPrefix("ru") ? "RUB" : file.hasPrefix("pl") ? "PLN" : "EUR"
    let preview = try cli.run(["import", path, "--dry-run", "--currency", currency])
    #expect(preview.code == 0, "\(preview.stderr)")
    #expect(preview.stdout.contains("encoding:      \(known.encoding) ("), "\(preview.stdout)")
    #expect(preview.stdout.contains("uchardet"), "says what detected it: \(preview.stdout)")
    let result = try cli.run(["import", path, "--currency", currency])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Encoding: \(known.encoding) ("), "the summary names it: \(result.stdout)")
    #expect(result.stderr.contains("the file is read as \(known.encoding)"), "warned: \(result.stderr)")
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(Set(rows.compactMap { $0["description"] as? String }) == Set(known.descriptions))
  }

  @Test func theEncodingFlagStillOverridesTheDetector() throws {
    let cli = try CLI()
    let path = CLI.fixture("encodings/pl_windows1250.csv")
    let result = try cli.run(["import", path, "--encoding", "windows-1252", "--currency", "PLN"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Encoding: windows-1252 (--encoding)"), "\(result.stdout)")
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(
      rows.contains {
        $0["description"] as? String
          == "Opłata za kartę".replacingOccurrences(of: "ł", with: "³").replacingOccurrences(of: "ę", with: "ê")
      }, "read as told, not as detected")
  }
}
