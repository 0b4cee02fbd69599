/// The structure an OFX file must keep for no transaction to be lost unseen.
///
/// OFX 1.x (SGML) may leave the close tag of a leaf out (`<TRNAMT>-12.00` then the next tag), but
/// never that of an aggregate: a `<STMTTRN>` opened while another is open would make the second
/// transaction overwrite the first, and a `<MEMO>` read inside a `<PAYEE>` (or `<BANKACCTTO>`)
/// whose close tag is missing would be dropped. Both are refused naming the line. An aggregate the file must close
/// that is ended by the close tag of an element around it is plain to read (it ends there): it
/// is read, with a warning.
extension OFXReader {
  /// The elements the small aggregates of a statement and its transactions may hold (OFX 2.2,
  /// 11.3.1, 11.4.3 and 5.2): any other element the reader knows, met inside one, means the
  /// aggregate's close tag is missing.
  static let children: [(OFXName, [OFXName])] = [
    (.bankacctfrom, bankAccount),
    (OFXName.named("BANKACCTTO"), bankAccount),
    (.ccacctfrom, ["ACCTID", "ACCTKEY"].map(OFXName.named)),
    (OFXName.named("CCACCTTO"), ["ACCTID", "ACCTKEY"].map(OFXName.named)),
    (
      .payee,
      ["NAME", "ADDR1", "ADDR2", "ADDR3", "CITY", "STATE", "POSTALCODE", "COUNTRY", "PHONE"].map(OFXName.named)
    ),
    (.currency, ["CURRATE", "CURSYM"].map(OFXName.named)),
    (OFXName.named("ORIGCURRENCY"), ["CURRATE", "CURSYM"].map(OFXName.named)),
  ]

  static let bankAccount = ["BANKID", "BRANCHID", "ACCTID", "ACCTTYPE", "ACCTKEY"].map(OFXName.named)

  /// Refuses `name` opened at `line` where it cannot be: a transaction inside a transaction, a
  /// statement inside a statement, an aggregate the file must close inside one of its own name,
  /// or an element the reader knows inside a transaction's aggregate that cannot hold it.
  func checkNesting(_ name: OFXName, line: Int) throws {
    let transactions: [OFXName] = [.stmttrn, .pendingtrn]
    let statements: [OFXName] = [.stmtrs, .ccstmtrs]
    let kind: [OFXName]? =
      transactions.contains(name) ? transactions : statements.contains(name) ? statements : nil
    if let kind, let open = stack.last(where: { kind.contains($0.name) }) {
      throw openInside(name, open, line: line)
    }
    if name.isRequiredAggregate, let open = stack.last(where: { $0.name == name }) {
      throw openInside(name, open, line: line)
    }
    guard name.id != 0, let parent = stack.last,
      let allowed = OFXReader.children.first(where: { $0.0 == parent.name })?.1, !allowed.contains(name)
    else { return }
    throw ImportError.malformed(
      file: file, line: line,
      message:
        "<\(name.text)> is inside <\(parent.name.text)> (line \(parent.line)), which cannot hold it: its </\(parent.name.text)> is missing",
      hint: "the file is damaged (a value would be lost): export the statement again from the bank")
  }

  func openInside(_ name: OFXName, _ open: Frame, line: Int) -> ImportError {
    .malformed(
      file: file, line: line,
      message:
        "<\(name.text)> opened while the <\(open.name.text)> from line \(open.line) is still open: its </\(open.name.text)> is missing",
      hint: "the file is damaged (a transaction would be lost): export the statement again from the bank")
  }

  /// The warning for `frame`, an aggregate the file must close, ended by `</name>` at `line`.
  func implicitClose(_ frame: Frame, by name: OFXName, line: Int) -> String {
    let outer = visibleControlCharacters(name.text)
    let inner = frame.name.text
    return
      "\(file):\(line): </\(outer)> ends the <\(inner)> from line \(frame.line), whose </\(inner)> is missing: read as if it were there"
  }
}
