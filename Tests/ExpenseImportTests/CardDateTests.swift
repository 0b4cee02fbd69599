import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// A card payment is dated when the card was used, in CAMT.053 and MT940 alike, only where
/// the statement says it is one; the booking date stays in the description, and the entry's
/// identity (fingerprint, former key) is the one an earlier version gave it.
@Suite struct CardDateTests {
  typealias T = StatementTesting

  @Test func camtCardEvidenceAndItsDays() throws {
    let run = T.run(CAMT053Reader.self, try T.fixture("camt053/card-payments-001-08.xml"))
    #expect(run.error == nil)
    let entries = T.entries(run.events)
    #expect(
      entries.map { "\($0.date) \($0.description)" } == [
        "2026-10-03 Markthalle Lindenau / booked 2026-10-05",  // BkTxCd family CCRD: the value date
        "2026-10-02 Tankstelle am Ring / booked 2026-10-05",  // RltdDts/AccptncDtTm
        "2026-10-03 Buchladen Eckstein / Kartenzahlung 03.10 14:22 Karte 1 / booked 2026-10-06",  // the text's time
        "2026-10-05 Hausverwaltung Weber / Miete Oktober, Rechnung vom 2026-09-28",  // a transfer keeps its booking
      ])
    #expect(entries.map(\.identityDate) == [try day("2026-10-05"), try day("2026-10-05"), try day("2026-10-06"), nil])
    #expect(
      entries.map(\.identityDescription) == [
        "Markthalle Lindenau", "Tankstelle am Ring", "Buchladen Eckstein / Kartenzahlung 03.10 14:22 Karte 1", nil,
      ])
  }

  @Test func mt940CardEvidenceAndItsDays() throws {
    let run = T.run(MT940Reader.self, try T.fixture("mt940/sparkasse-card-payments.sta"))
    #expect(run.error == nil)
    let entries = T.entries(run.events)
    #expect(
      entries.map { "\($0.date) \($0.description)" } == [
        "2026-10-03 Markthalle Lindenaugirocard / booked 2026-10-05",  // GVC 106: the value date
        "2026-10-02 Tankstelle am Ring / 2026-10-02T19:45:00 Karte12028-12 / booked 2026-10-05",  // the purpose's time
        "2026-10-05 Hausverwaltung Weber / Miete Oktober",  // a direct debit keeps its booking
      ])
    #expect(entries.map(\.identityDate) == [try day("2026-10-05"), try day("2026-10-05"), nil])
  }

  @Test func theIdentityIsTheBookingDatesAndTheStoreFindsTheFormerKey() throws {
    let path = T.fixtures.appendingPathComponent("mt940/sparkasse-card-payments.sta").path
    let importer = try FileImporters.open(path: path, options: ImportOptions(), defaultCurrency: .eur)
    var rows: [ImportedRow] = []
    try importer.run(skipInvalid: false, progress: nil) { if case .row(let row) = $0 { rows.append(row) } }
    // The rows as the build before made them: dated by their booking, described without it.
    var before = EntryMapper()
    let account = "12030000/0000202051"
    let old = [
      ("Markthalle Lindenaugirocard", Int64(-2380)), ("Tankstelle am Ring / 2026-10-02T19:45:00 Karte12028-12", -6140),
      ("Hausverwaltung Weber / Miete Oktober", -45000),
    ]
    #expect(rows.count == old.count)
    for (row, (text, minor)) in zip(rows, old) {
      let then = before.row(
        StatementEntry(
          line: row.line, date: try day("2026-10-05"), amount: eur(minor), description: text, account: account))
      #expect(row.fingerprintHash == then.fingerprintHash, "\(text)")
      #expect((row.formerKey ?? row.key) == then.key, "\(text): the store finds the row stored then")
    }
    #expect(rows.map { $0.formerKey != nil } == [true, true, false])
  }

  @Test func cardTimesInText() throws {
    let booked = try day("2026-10-05")
    #expect(CardDate.inText("2026-10-03T14:22:00 Karte1", booked: booked) == (try day("2026-10-03")))
    #expect(CardDate.inText("Kartenzahlung 03.10 14:22", booked: booked) == (try day("2026-10-03")))
    #expect(CardDate.inText("am 02.10.2026 09:15 Uhr", booked: booked) == (try day("2026-10-02")))
    #expect(CardDate.inText("am 02.10.26 09:15 Uhr", booked: booked) == (try day("2026-10-02")))
    #expect(CardDate.inText("Rechnung vom 2026-09-28", booked: booked) == nil, "a date without its time")
    #expect(CardDate.inText("Rechnung 02.10", booked: booked) == nil)
    #expect(CardDate.inText("Ref 12026-10-03T14:22", booked: booked) == nil, "inside a longer number")
    // Without a year: the latest such day on or before the booking, across New Year.
    #expect(CardDate.inText("30.12 18:00", booked: try day("2027-01-02")) == (try day("2026-12-30")))
  }

  @Test func onlyAPlausibleDayRedates() throws {
    var entry = StatementEntry(line: 1, date: try day("2026-10-05"), amount: eur(-100), description: "Shop")
    entry.dateCardPayment(try day("2026-10-06"))
    #expect(entry.date == (try day("2026-10-05")) && entry.identityDate == nil, "never after the booking")
    entry.dateCardPayment(try day("2026-08-01"))
    #expect(entry.date == (try day("2026-10-05")), "never more than 31 days before it")
    entry.dateCardPayment(try day("2026-10-05"))
    #expect(entry.description == "Shop" && entry.identityDescription == nil, "the booking day itself changes nothing")
    entry.dateCardPayment(try day("2026-09-04"))
    #expect(entry.date == (try day("2026-09-04")) && entry.description == "Shop / booked 2026-10-05")
  }
}
