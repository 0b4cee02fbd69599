import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// One folder for every file this test process writes, removed when the process exits: runs
/// leave nothing in the system's temporary folder.
let importTestFolder: String = {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("expense-import-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    .path
  try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  atexit { try? FileManager.default.removeItem(atPath: importTestFolder) }
  return folder
}()

/// Writes bytes to a fresh temporary file (in its own folder, so `name` is kept) and returns its path.
func temporaryFile(_ bytes: [UInt8], name: String = "t.csv") -> String {
  let dir = URL(fileURLWithPath: importTestFolder).appendingPathComponent(UUID().uuidString)
  try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let url = dir.appendingPathComponent(name)
  _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
  return url.path
}

func temporaryFile(_ text: String) -> String { temporaryFile(Array(text.utf8)) }

func importAll(_ path: String, _ options: ImportOptions = ImportOptions(), skipInvalid: Bool = false) throws -> (
  rows: [ImportedRow], warnings: [String], excluded: [(Int, String)], rejected: [ImportIssue]
) {
  let importer = try CSVImporter(path: path, options: options, defaultCurrency: .usd)
  var rows: [ImportedRow] = []
  var warnings: [String] = []
  var excluded: [(Int, String)] = []
  var rejected: [ImportIssue] = []
  try importer.run(skipInvalid: skipInvalid, progress: nil) { event in
    switch event {
    case .row(let r): rows.append(r)
    case .warning(let w): warnings.append(w)
    case .excluded(let line, let reason): excluded.append((line, reason))
    case .rejected(let issue): rejected.append(issue)
    case .balance, .stored: break  // no stored keys were given
    }
  }
  return (rows, warnings, excluded, rejected)
}

func undetectableHint(_ path: String, _ options: ImportOptions = ImportOptions()) -> String? {
  do {
    _ = try CSVImporter(path: path, options: options, defaultCurrency: .usd).detect()
    return nil
  } catch {
    if case .undetectable(_, _, let hint) = error { return hint }
    return "other: \(error)"
  }
}

@Suite struct DetectionTests {
  @Test func missingFileIsNoInput() {
    #expect(throws: ImportError.noInput(path: "/nonexistent/x.csv")) {
      _ = try CSVImporter(path: "/nonexistent/x.csv", options: ImportOptions(), defaultCurrency: .usd)
    }
  }

  @Test func ambiguousDatesNameTheFlag() throws {
    let path = temporaryFile("Date,Description,Amount\n01/02/2026,A,-1.00\n03/04/2026,B,-2.00\n")
    let hint = undetectableHint(path)
    #expect(hint?.contains("--date-format DD/MM/YYYY") == true, "\(hint ?? "")")
    #expect(hint?.contains("--date-format MM/DD/YYYY") == true)
    var options = ImportOptions()
    options.dateFormat = "DD/MM/YYYY"
    #expect(try importAll(path, options).rows.map(\.date.description) == ["2026-02-01", "2026-04-03"])
  }

  @Test func dayMonthOrderFromTheWholeColumn() throws {
    // The first rows are ambiguous; a later row decides.
    let path = temporaryFile("Date,Description,Amount\n01/02/2026,A,-1.00\n03/04/2026,B,-2.00\n25/04/2026,C,-3.00\n")
    let dialect = try CSVImporter(path: path, options: ImportOptions(), defaultCurrency: .usd).detect()
    #expect(dialect.dateFormat == "DD/MM/YYYY")
    let mdy = temporaryFile("Date,Description,Amount\n01/02/2026,A,-1.00\n04/25/2026,C,-3.00\n")
    #expect(
      try CSVImporter(path: mdy, options: ImportOptions(), defaultCurrency: .usd).detect().dateFormat == "MM/DD/YYYY")
  }

  @Test func ambiguousDecimalMarkNamesTheFlag() throws {
    let path = temporaryFile("Date;Description;Amount\n2026-10-01;A;1,234\n2026-10-02;B;-2,500\n")
    #expect(undetectableHint(path)?.contains("--decimal-mark") == true)
    // Another value settles it: "1,234.50" has a dot after a comma, so "1,234" is 1234.00.
    let decided = temporaryFile("Date;Description;Amount\n2026-10-01;A;1,234\n2026-10-02;B;-1,234.50\n")
    #expect(try importAll(decided).rows.map(\.amount.minor) == [123_400, -123_450])
  }

  @Test func mostlyPositiveAmountsStopAndNameTheFlag() throws {
    let text =
      "Date,Description,Amount\n2026-10-01,A,10.00\n2026-10-02,B,20.00\n2026-10-03,C,5.00\n2026-10-04,Pay,-35.00\n"
    let hint = undetectableHint(temporaryFile(text))
    #expect(hint?.contains("--spending positive") == true, "\(hint ?? "")")
    #expect(hint?.contains("--spending negative") == true)
    // Two positive amounts of a tiny file are no evidence: the bank's reading stands, as in
    // Actual and hledger, and the dialect says it was a default.
    let two = temporaryFile("Date,Description,Amount\n2026-10-01,A,10.00\n2026-10-02,B,20.00\n")
    #expect(try importAll(two).rows.map(\.amount.minor) == [1000, 2000])
    var options = ImportOptions()
    options.spending = .negative
    #expect(try importAll(temporaryFile(text), options).rows.map(\.amount.minor) == [1000, 2000, 500, -3500])
    options.spending = .positive
    #expect(try importAll(temporaryFile(text), options).rows.map(\.amount.minor) == [-1000, -2000, -500, 3500])
    // Mostly negative amounts settle it: spending is negative.
    let account = temporaryFile(
      "Date,Description,Amount\n2026-10-01,A,-10.00\n2026-10-02,Pay,2000.00\n2026-10-03,C,-5.00\n")
    #expect(try importAll(account).rows.map(\.amount.minor) == [-1000, 200_000, -500])
  }

  @Test func headerlessFileIsInferred() throws {
    let path = temporaryFile("2026-10-01,Shell Station 12,-45.00\n2026-10-02,Costco Wholesale,-132.87\n")
    let result = try importAll(path)
    #expect(result.rows.map(\.description) == ["Shell Station 12", "Costco Wholesale"])
    #expect(result.warnings.contains { $0.contains("--columns date,description,amount") })
  }

  @Test func namedColumnOverridesTheRole() throws {
    let text = "Date,Name,Gross,Fee,Net\n2026-10-01,Jane,100.00,-3.20,96.80\n"
    // One positive amount cannot tell which sign is spending: the flag says it.
    var options = ImportOptions()
    options.spending = .negative
    #expect(try importAll(temporaryFile(text), options).rows.map(\.amount.minor) == [9680])
    options.namedColumns = ["Net": .amount, "Fee": .ignore]
    #expect(try importAll(temporaryFile(text), options).rows.map(\.amount.minor) == [9680])
    options.namedColumns = ["Gross": .amount, "Fee": .ignore]
    #expect(try importAll(temporaryFile(text), options).rows.map(\.amount.minor) == [10000])
  }

  @Test func skipWhenExcludesRows() throws {
    var options = ImportOptions()
    options.skipWhen = ["Type=transfer"]
    let text = "Date,Type,Description,Amount\n2026-10-01,CARD,Cafe,-3.00\n2026-10-02,Transfer,Savings,-100.00\n"
    let result = try importAll(temporaryFile(text), options)
    #expect(result.rows.map(\.line) == [2])
    #expect(result.excluded.map(\.0) == [3])
  }

  @Test func dialectDescriptionForDryRun() throws {
    let path = temporaryFile("Date;Omschrijving;Bedrag\n2026-10-01;Albert Heijn;-12,50\n")
    let dialect = try CSVImporter(path: path, options: ImportOptions(), defaultCurrency: .eur).detect()
    #expect(dialect.delimiter == ";")
    #expect(dialect.decimalMark == ",")
    #expect(dialect.headerLine == 1)
    #expect(dialect.columns.map(\.role) == [.date, .description, .amount])
    #expect(dialect.description.contains("delimiter:     ;"))
  }

  @Test func invalidUTF8WithoutEncodingFallsBackToWindows1252() throws {
    let bytes: [UInt8] = Array("Date,Description,Amount\n2026-10-01,B".utf8) + [0xE4] + Array("ckerei,-4.00\n".utf8)
    let result = try importAll(temporaryFile(bytes))
    #expect(result.rows.first?.description == "Bäckerei")
  }

  @Test func optionsRoundTripAsJSON() throws {
    var options = ImportOptions()
    options.columns = [.date, .ignore, .amount]
    options.namedColumns = ["Net": .amount]
    options.spending = .positive
    options.skipWhen = ["Type=X"]
    let data = try JSONEncoder().encode(options)
    #expect(try JSONDecoder().decode(ImportOptions.self, from: data) == options)
    #expect(try JSONDecoder().decode(ImportOptions.self, from: Data("{}".utf8)) == ImportOptions())
  }
}

@Suite struct OccurrenceTests {
  @Test func identicalRowsOnOneDayGetDistinctStableFingerprints() throws {
    let text = """
      Date,Description,Amount
      2026-10-01,Coffee,-3.00
      2026-10-01,Coffee,-3.00
      2026-10-02,Coffee,-3.00
      2026-10-02,Coffee,-3.00

      """
    let first = try importAll(temporaryFile(text)).rows.map(\.fingerprint)
    let again = try importAll(temporaryFile(text)).rows.map(\.fingerprint)
    #expect(Set(first).count == 4)
    #expect(first == again)
    let expected = Fingerprint.make(
      account: "", date: CivilDate(year: 2026, month: 10, day: 1)!, currency: .usd, amountMinor: -300,
      description: "Coffee", occurrence: 2)
    #expect(first[1] == expected)
    // An overlapping export (only the second day) gives the same fingerprints for that day.
    let overlap = try importAll(
      temporaryFile("Date,Description,Amount\n2026-10-02,Coffee,-3.00\n2026-10-02,Coffee,-3.00\n"))
    #expect(overlap.rows.map(\.fingerprint) == Array(first[2...]))
  }

  @Test func counterClearsPerDateWhileSortedAndKeepsAllWhenNot() {
    var counter = OccurrenceCounter()
    #expect(counter.next(day: 10, key: 1).occurrence == 1)
    #expect(counter.next(day: 10, key: 1).occurrence == 2)
    #expect(counter.next(day: 11, key: 2).occurrence == 1)
    #expect(counter.counts.count == 1)  // day 10 forgotten
    let back = counter.next(day: 9, key: 3)
    #expect(back.unsortedNow)
    #expect(counter.next(day: 11, key: 2).occurrence == 2)  // kept from now on
    #expect(counter.next(day: 12, key: 4).unsortedNow == false)
    #expect(counter.counts.count == 3)
  }

  @Test func accountIsPartOfTheFingerprint() throws {
    var options = ImportOptions()
    options.account = "Joint"
    let path = temporaryFile("Date,Description,Amount\n2026-10-01,Coffee,-3.00\n")
    let a = try importAll(path, options).rows[0]
    let b = try importAll(path).rows[0]
    #expect(a.account == "Joint")
    #expect(a.fingerprint != b.fingerprint)
  }
}
