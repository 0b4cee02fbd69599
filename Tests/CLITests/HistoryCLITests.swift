import Foundation
import Testing

/// `history` and `undo` through the built binary, as a user meets them: a mistaken delete,
/// edit and `imports remove` each undone, the ids and `check` as before, an undo undone, and
/// every line within the width (the independent width checker) from 20 to 120 columns.
@Suite struct HistoryCLITests {
  @Test func aMistakeIsUndoneAndTheLedgerIsAsItWas() throws {
    let cli = try CLI()
    let csv = """
      Date,Description,Amount,Category
      2026-10-02,GREENLEAF GROCERS,-42.10,Groceries
      2026-10-03,TRATTORIA ROMA,-38.00,Dining out
      2026-10-05,CITY TRANSIT,-2.75,Transport

      """
    #expect(try cli.run(["import", try cli.file("october.csv", csv)]).code == 0)
    let before = try cli.run(["list", "--format", "json"]).stdout
    #expect(try cli.run(["delete", "2"]).code == 0)
    #expect(try cli.run(["edit", "1", "--amount", "4210", "--category", "Rent"]).code == 0)
    #expect(try cli.run(["imports", "remove", "1"]).code == 0)
    #expect(try cli.run(["list", "--format", "json"]).stdout == "[]\n")

    let history = try cli.run(["history", "--width", "80"])
    #expect(history.code == 0)
    let firstLines = history.stdout.split(separator: "\n").filter { $0.hasPrefix("#") }
    #expect(firstLines.map { String($0.prefix(3)) } == ["#4 ", "#3 ", "#2 ", "#1 "], "\(history.stdout)")
    #expect(history.stdout.contains("#3 edit 1 amount -$42.10 → -$4,210.00, category Groceries → Rent"))
    for width in 20...120 {
      let shown = try cli.run(["history", "--width", String(width)])
      let check = try independentWidthCheck(shown.stdout, width: width)
      #expect(check.ok, "\(width): \(check.message)")
    }

    // Newest first: the removal, the edit, the delete.
    let undone = try cli.run(["undo", "--width", "80"])
    #expect(undone.code == 0 && undone.stdout.hasPrefix("Undid #4 imports remove #1 (october.csv)"), "\(undone.stdout)")
    #expect(try cli.run(["undo"]).stdout.contains("expense 1: amount -$4,210.00 → -$42.10, category Rent → Groceries"))
    let back = try cli.run(["undo", "--width", "20"])
    #expect(back.code == 0 && back.stdout.contains("expense 2 back"), "\(back.stdout)")
    #expect(try independentWidthCheck(back.stdout, width: 20).ok)
    #expect(try cli.run(["list", "--format", "json"]).stdout == before, "the same rows under the same ids")
    #expect(try cli.run(["check"]).code == 0)
    // Importing the file again finds every row: the keys came back too.
    let again = try cli.run(["import", try cli.file("october.csv", csv)])
    #expect(again.stdout.contains("0 new") || again.stdout.contains("3 duplicates"), "\(again.stdout)")
    #expect(try cli.run(["list", "--format", "json"]).stdout == before)

    // The undo of the delete, undone: the row goes again; JSON says so.
    let redo = try cli.json(["undo", "7", "--format", "json"]) as? [String: Any]
    #expect((redo?["undone"] as? [String: Any])?["action"] as? String == "undo")
    #expect(try cli.run(["list", "--format", "json"]).stdout.contains("TRATTORIA") == false)
    let listed = try cli.json(["history", "--format", "json"]) as? [[String: Any]]
    #expect(listed?.first?["undoes"] as? Int == 7 && listed?.first?["by"] as? String == "local")
    // A copy keeps the history, with its numbers.
    let copy = cli.directory.appendingPathComponent("copy.sqlite").path
    #expect(try cli.run(["copy", "--from", cli.db, "--to", copy], useDatabase: false).code == 0)
    let copied = try cli.run(["history", "--format", "json", "--db", copy], useDatabase: false).stdout
    #expect(copied == (try cli.run(["history", "--format", "json"]).stdout))
    // Nothing read-only writes: history reads only.
    let bytes = try cli.databaseBytes()
    _ = try cli.run(["history"])
    #expect(try cli.databaseBytes() == bytes)
  }
}
