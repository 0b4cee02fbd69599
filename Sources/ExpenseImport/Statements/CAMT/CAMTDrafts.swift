import ExpenseCore

/// What a CAMT.053 `Ntry` (or one of its `TxDtls`) said, as text, until the element ends and
/// the values are checked: the reader keeps one entry in memory at a time.
struct CAMTValue {
  var text: String
  var line: Int
}

/// One `Ntry/NtryDtls/TxDtls`.
struct CAMTDetail {
  var line: Int
  /// `Amt` (from .001.04 on) or `AmtDtls/TxAmt/Amt`, with the path it came from.
  var amount: CAMTValue?
  var amountPath = ""
  var currency: String?
  var creditDebit: CAMTValue?
  var servicerReference: String?
  var endToEndID: String?
  var creditorName: String?
  var debtorName: String?
  var remittance: [String] = []
  var additionalInfo: String?
  /// The detail says it is a card payment (`BkTxCd/Domn/Fmly/Cd` `CCRD` or `DCRD`, a `CardTx`).
  var card = false
  /// `RltdDts/AccptncDtTm` (when the card payment was accepted) or `RltdDts/TxDtTm`.
  var accepted: CAMTValue?
  var transactionTime: CAMTValue?
}

/// One `Ntry`.
struct CAMTEntryDraft {
  var line: Int
  var amount: CAMTValue?
  var currency: String?
  var creditDebit: CAMTValue?
  var reversal = false
  var status: String?
  var bookingDate: CAMTValue?
  var bookingDatePath = ""
  var valueDate: CAMTValue?
  var valueDatePath = ""
  var servicerReference: String?
  var additionalInfo: String?
  var details: [CAMTDetail] = []
  /// The entry says it is a card payment (`BkTxCd/Domn/Fmly/Cd` `CCRD` or `DCRD`, a `CardTx`).
  var card = false
}

/// One `Stmt`: the account and currency its entries belong to.
struct CAMTStatement {
  var iban: String?
  var otherID: String?
  var currency: Currency?
  /// The `Bal` being read.
  var balance = CAMTBalanceDraft()
}

/// A statement's `Bal` as read: its code, amount (with its `Ccy`), credit or debit, and date.
struct CAMTBalanceDraft {
  var code: String?
  var amount: CAMTValue?
  var currency: String?
  var creditDebit: String?
  var date: String?
}
