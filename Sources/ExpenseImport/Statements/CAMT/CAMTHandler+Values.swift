import ExpenseCore

/// The values the reader keeps, by their path below the `Stmt`, `Ntry` or `TxDtls` they belong
/// to. A path is matched as numbers, and its text (the column errors name) is a constant.
extension CAMTHandler {
  mutating func statementValue(_ relative: ArraySlice<CAMTName>, _ text: Text)
    throws(ImportError)
  {
    switch Path(relative) {
    case Path(.acct, .id, .iban):
      let kept = try value("Stmt/Acct/Id/IBAN", text)?.text
      statement?.iban = kept
    case Path(.acct, .id, .othr, .id):
      let kept = try value("Stmt/Acct/Id/Othr/Id", text)?.text
      statement?.otherID = kept
    case Path(.acct, .ccy):
      guard let raw = try value("Stmt/Acct/Ccy", text) else { return }
      guard let currency = Currency(code: raw.text) else {
        throw .row(
          issue(
            .unknownCurrency, line: raw.line, column: "Stmt/Acct/Ccy", raw: raw.text,
            message: "the account's currency is not an ISO 4217 code",
            hint: "the file is damaged, or give the currency with --currency"))
      }
      statement?.currency = currency
      currencies.append(currency.code)
    case Path(.bal, .tp, .cdOrPrtry, .cd):
      let kept = try value("Stmt/Bal/Tp/CdOrPrtry/Cd", text)?.text
      statement?.balance.code = kept
    case Path(.bal, .amt):
      let kept = try value("Stmt/Bal/Amt", text)
      statement?.balance.amount = kept
      statement?.balance.currency = pendingCurrency
    case Path(.bal, .cdtDbtInd):
      let kept = try value("Stmt/Bal/CdtDbtInd", text)?.text
      statement?.balance.creditDebit = kept
    case Path(.bal, .dt, .dt), Path(.bal, .dt, .dtTm):
      let kept = try value("Stmt/Bal/Dt", text)?.text
      statement?.balance.date = kept
    case Path(.acct):
      if let iban = statement?.iban {
        accounts.append((iban, "Acct/Id/IBAN"))
      } else if let other = statement?.otherID {
        accounts.append((other, "Acct/Id/Othr/Id"))
      }
    default: break
    }
  }

  mutating func entryValue(_ relative: ArraySlice<CAMTName>, _ text: Text) throws(ImportError) {
    switch Path(relative) {
    case Path(.amt):
      let kept = try value("Ntry/Amt", text)
      entry.amount = kept
      entry.currency = pendingCurrency
    case Path(.cdtDbtInd):
      let kept = try value("Ntry/CdtDbtInd", text)
      entry.creditDebit = kept
    case Path(.rvslInd):
      let kept = try value("Ntry/RvslInd", text)?.text.lowercased() == "true"
      entry.reversal = kept
    case Path(.sts): try status("Ntry/Sts", text)
    case Path(.sts, .cd): try status("Ntry/Sts/Cd", text)
    case Path(.sts, .prtry): try status("Ntry/Sts/Prtry", text)
    case Path(.bookgDt, .dt): try bookingDate("Ntry/BookgDt/Dt", text)
    case Path(.bookgDt, .dtTm): try bookingDate("Ntry/BookgDt/DtTm", text)
    case Path(.valDt, .dt): try valueDate("Ntry/ValDt/Dt", text)
    case Path(.valDt, .dtTm): try valueDate("Ntry/ValDt/DtTm", text)
    case Path(.acctSvcrRef):
      let kept = try value("Ntry/AcctSvcrRef", text)?.text
      entry.servicerReference = kept
    case Path(.addtlNtryInf):
      let kept = try value("Ntry/AddtlNtryInf", text)?.text
      entry.additionalInfo = kept
    case Path(.bkTxCd, .domn, .fmly, .cd):
      if let family = try value("Ntry/BkTxCd/Domn/Fmly/Cd", text)?.text, CAMTHandler.cardFamilies.contains(family) {
        entry.card = true
      }
    default: break
    }
  }

  private mutating func status(_ column: String, _ text: Text) throws(ImportError) {
    if let status = try value(column, text)?.text, !status.isEmpty { entry.status = status }
  }

  private mutating func bookingDate(_ column: String, _ text: Text) throws(ImportError) {
    let kept = try value(column, text)
    entry.bookingDate = kept
    entry.bookingDatePath = column
  }

  private mutating func valueDate(_ column: String, _ text: Text) throws(ImportError) {
    let kept = try value(column, text)
    entry.valueDate = kept
    entry.valueDatePath = column
  }

  mutating func detailValue(_ relative: ArraySlice<CAMTName>, _ text: Text) throws(ImportError) {
    let prefix = "Ntry/NtryDtls/TxDtls/"
    switch Path(relative) {
    case Path(.amt), Path(.amtDtls, .txAmt, .amt):
      // `Amt` (from .001.04 on) is the detail's amount; `AmtDtls/TxAmt` says the same in .02.
      let own = relative.count == 1
      if detail.amount == nil || own {
        let column = own ? prefix + "Amt" : prefix + "AmtDtls/TxAmt/Amt"
        let kept = try value(column, text)
        detail.amount = kept
        detail.amountPath = column
        detail.currency = pendingCurrency
      }
    case Path(.cdtDbtInd):
      let kept = try value(prefix + "CdtDbtInd", text)
      detail.creditDebit = kept
    case Path(.refs, .acctSvcrRef):
      let kept = try value(prefix + "Refs/AcctSvcrRef", text)?.text
      detail.servicerReference = kept
    case Path(.refs, .endToEndId):
      let kept = try value(prefix + "Refs/EndToEndId", text)?.text
      detail.endToEndID = kept
    case Path(.rltdPties, .cdtr, .nm):
      let kept = try value(prefix + "RltdPties/Cdtr/Nm", text)?.text
      detail.creditorName = kept
    case Path(.rltdPties, .cdtr, .pty, .nm):
      let kept = try value(prefix + "RltdPties/Cdtr/Pty/Nm", text)?.text
      detail.creditorName = kept
    case Path(.rltdPties, .dbtr, .nm):
      let kept = try value(prefix + "RltdPties/Dbtr/Nm", text)?.text
      detail.debtorName = kept
    case Path(.rltdPties, .dbtr, .pty, .nm):
      let kept = try value(prefix + "RltdPties/Dbtr/Pty/Nm", text)?.text
      detail.debtorName = kept
    case Path(.rmtInf, .ustrd):
      if let line = try value(prefix + "RmtInf/Ustrd", text)?.text, !line.isEmpty {
        detail.remittance.append(line)
      }
    case Path(.addtlTxInf):
      let kept = try value(prefix + "AddtlTxInf", text)?.text
      detail.additionalInfo = kept
    case Path(.bkTxCd, .domn, .fmly, .cd):
      if let family = try value(prefix + "BkTxCd/Domn/Fmly/Cd", text)?.text, CAMTHandler.cardFamilies.contains(family) {
        detail.card = true
      }
    case Path(.rltdDts, .accptncDtTm):
      let kept = try value(prefix + "RltdDts/AccptncDtTm", text)
      detail.accepted = kept
    case Path(.rltdDts, .txDtTm):
      let kept = try value(prefix + "RltdDts/TxDtTm", text)
      detail.transactionTime = kept
    default: break
    }
  }
}

/// A path of up to four known element names, packed in one integer (a longer path, or one with
/// a name the reader does not know, matches none of the reader's).
struct Path: Equatable {
  let packed: UInt64

  init(_ a: CAMTName) { packed = 1 << 56 | UInt64(a.rawValue) }
  init(_ a: CAMTName, _ b: CAMTName) { packed = 2 << 56 | UInt64(a.rawValue) << 8 | UInt64(b.rawValue) }
  init(_ a: CAMTName, _ b: CAMTName, _ c: CAMTName) {
    packed = 3 << 56 | UInt64(a.rawValue) << 16 | UInt64(b.rawValue) << 8 | UInt64(c.rawValue)
  }
  init(_ a: CAMTName, _ b: CAMTName, _ c: CAMTName, _ d: CAMTName) {
    packed =
      4 << 56 | UInt64(a.rawValue) << 24 | UInt64(b.rawValue) << 16 | UInt64(c.rawValue) << 8 | UInt64(d.rawValue)
  }

  init(_ names: ArraySlice<CAMTName>) {
    guard names.count <= 4, !names.contains(.other) else {
      packed = .max
      return
    }
    var packed: UInt64 = 0
    for name in names { packed = packed << 8 | UInt64(name.rawValue) }
    self.packed = packed | UInt64(names.count) << 56
  }
}
