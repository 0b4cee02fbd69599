/// The local names of the CAMT.053 elements the reader looks at, by number; `other` is any
/// other name. Why numbers: the reader compares every element's name with these, and keeps the
/// path of open elements; numbers make that free, where a `String` per element had to be built
/// and compared, and a path string joined at every end tag.
enum CAMTName: UInt8 {
  case other = 0
  case document, bkToCstmrStmt, stmt, ntry, ntryDtls, txDtls, acct, id, iban, othr, ccy, amt, cdtDbtInd, rvslInd
  case sts, cd, prtry, bookgDt, dt, dtTm, valDt, acctSvcrRef, addtlNtryInf, amtDtls, txAmt, refs, endToEndId
  case rltdPties, cdtr, dbtr, pty, nm, rmtInf, ustrd, addtlTxInf
  case bkTxCd, domn, fmly, cardTx, rltdDts, txDtTm, accptncDtTm
  /// CAMT.052, the account report: the same entries under `BkToCstmrAcctRpt/Rpt`.
  case bkToCstmrAcctRpt, rpt
  /// A statement's balances: `Bal/Tp/CdOrPrtry/Cd` (`OPBD`, `CLBD`, …).
  case bal, tp, cdOrPrtry

  /// Each name as written, by number (the first is `other`'s, never looked up).
  static let texts: [String] = [
    "", "Document", "BkToCstmrStmt", "Stmt", "Ntry", "NtryDtls", "TxDtls", "Acct", "Id", "IBAN", "Othr", "Ccy",
    "Amt", "CdtDbtInd", "RvslInd", "Sts", "Cd", "Prtry", "BookgDt", "Dt", "DtTm", "ValDt", "AcctSvcrRef",
    "AddtlNtryInf", "AmtDtls", "TxAmt", "Refs", "EndToEndId", "RltdPties", "Cdtr", "Dbtr", "Pty", "Nm", "RmtInf",
    "Ustrd", "AddtlTxInf", "BkTxCd", "Domn", "Fmly", "CardTx", "RltdDts", "TxDtTm", "AccptncDtTm",
    "BkToCstmrAcctRpt", "Rpt", "Bal", "Tp", "CdOrPrtry",
  ]

  /// The table the scanner looks names up in (built once).
  static let table = XMLNameTable(texts)
}

/// Finds a name's number from its bytes and their FNV-1a hash: open addressing over a fixed
/// list of names, in memory allocated once for the process and never freed (a few hundred bytes).
final class XMLNameTable: @unchecked Sendable {
  static let seed: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x0000_0100_0000_01b3
  static let capacity = 256

  /// Per slot: the hash of the name there and its number (0: an empty slot).
  let hashes: UnsafeMutablePointer<UInt64>
  let numbers: UnsafeMutablePointer<UInt8>
  /// Per name (by number): where its bytes start in `bytes`, and how many.
  let starts: UnsafeMutablePointer<Int>
  let lengths: UnsafeMutablePointer<Int>
  let bytes: UnsafeMutablePointer<UInt8>

  /// `texts[0]` is never found (number 0 is "none of these").
  init(_ texts: [String]) {
    let capacity = XMLNameTable.capacity
    hashes = .allocate(capacity: capacity)
    hashes.initialize(repeating: 0, count: capacity)
    numbers = .allocate(capacity: capacity)
    numbers.initialize(repeating: 0, count: capacity)
    starts = .allocate(capacity: texts.count)
    lengths = .allocate(capacity: texts.count)
    let all = texts.flatMap { Array($0.utf8) }
    bytes = .allocate(capacity: max(all.count, 1))
    bytes.initialize(from: all, count: all.count)
    var offset = 0
    for (number, text) in texts.enumerated() {
      let utf8 = Array(text.utf8)
      starts[number] = offset
      lengths[number] = utf8.count
      offset &+= utf8.count
      guard number > 0 else { continue }
      var hash = XMLNameTable.seed
      for b in utf8 { hash = (hash ^ UInt64(b)) &* XMLNameTable.prime }
      var slot = Int(truncatingIfNeeded: hash) & (capacity &- 1)
      while numbers[slot] != 0 { slot = (slot &+ 1) & (capacity &- 1) }
      hashes[slot] = hash
      numbers[slot] = UInt8(truncatingIfNeeded: number)
    }
  }

  /// The number of the name `name[0..<count]` whose hash is `hash`, or 0.
  @inline(__always)
  func lookup(_ name: UnsafePointer<UInt8>, _ count: Int, hash: UInt64) -> UInt8 {
    var slot = Int(truncatingIfNeeded: hash) & (XMLNameTable.capacity &- 1)
    while true {
      let number = numbers[slot]
      if number == 0 { return 0 }
      if hashes[slot] == hash && lengths[Int(number)] == count {
        let start = bytes + starts[Int(number)]
        var i = 0
        while i < count && start[i] == name[i] { i &+= 1 }
        if i == count { return number }
      }
      slot = (slot &+ 1) & (XMLNameTable.capacity &- 1)
    }
  }
}
