/// Header names banks use, in many languages, and the role each one plays.
///
/// Names are compared after `normalizeHeader`: lower-cased, accents folded (`ü`→`u`, `é`→`e`,
/// `ß`→`ss`), everything but letters and digits removed, so `Date de l'opération`, `DATE DE
/// L OPERATION` and `date_de_loperation` are the same name. A lower rank wins when several
/// columns could play the same role (`Transaction Date` beats `Post Date` beats `Valuta`).
enum HeaderNames {
  /// How a column name relates to a role.
  struct Match: Equatable {
    var role: ColumnRole
    var rank: Int
    /// For `description`: `false` for memo-like columns that are appended to the payee.
    var primary: Bool = true
  }

  static func normalize(_ name: String) -> String {
    var out = ""
    for scalar in name.lowercased().unicodeScalars {
      switch scalar {
      case "a"..."z", "0"..."9": out.unicodeScalars.append(scalar)
      case "à", "á", "â", "ã", "ä", "å": out += "a"
      case "ç": out += "c"
      case "è", "é", "ê", "ë": out += "e"
      case "ì", "í", "î", "ï": out += "i"
      case "ñ": out += "n"
      case "ò", "ó", "ô", "õ", "ö", "ø": out += "o"
      case "æ": out += "ae"
      case "ù", "ú", "û", "ü": out += "u"
      case "ß": out += "ss"
      case "ő": out += "o"
      case "ű": out += "u"
      case "ą": out += "a"
      case "ć", "č": out += "c"
      case "ę", "ě": out += "e"
      case "ł": out += "l"
      case "ń", "ň": out += "n"
      case "ś", "š": out += "s"
      case "ź", "ż", "ž": out += "z"
      case "ř": out += "r"
      case "ý": out += "y"
      case "ď": out += "d"
      case "ť": out += "t"
      case "ů": out += "u"
      default:
        // Letters of other scripts (日付, 金额, 거래일) are kept as they are.
        if scalar.value > 0x2FF && scalar.properties.isAlphabetic { out.unicodeScalars.append(scalar) }
      }
    }
    return out
  }

  static let exact: [String: Match] = {
    var table: [String: Match] = [:]
    func add(_ role: ColumnRole, _ rank: Int, _ names: String, primary: Bool = true) {
      for name in names.split(separator: " ") { table[String(name)] = Match(role: role, rank: rank, primary: primary) }
    }
    add(
      .date, 0,
      "date transactiondate transdate datum buchungstag buchungsdatum transactiedatum fecha fechaoperacion "
        + "datedeloperation dateoperation datedoperation data dataoperazione datamovimento datatransazione "
        + "starteddate tradedate datadetransacao datadomovimento dataoperacao dato bokforingsdag "
        + "bokforingsdato transaktionsdatum paivamaara datatransakcji kirjauspaiva")
    add(
      .date, 0,
      "konyvelesdatuma konyvelesnapja tranzakciodatuma datumzauctovani datumtransakce datumplatby "
        + "dataksiegowania transaktionsdato bokforingsdato kirjauspaiva maksupaiva "
        + "日付 取引日 ご利用日 利用日 お取引日 日期 交易日期 交易日 记账日期 거래일 거래일자 거래일시 날짜")
    add(.date, 1, "postingdate posteddate postdate bookingdate boekdatum datecomptable datacontabile completeddate")
    add(.date, 2, "valuedate valutadatum wertstellung datedevaleur fechavalor datavaluta rentedatum")
    add(
      .amount, 0,
      "amount betrag bedrag montant importe importo umsatz valor quantia transactionamount amt "
        + "montantoperation betragineur bedrageur umsatzineur belopp belob belop kwota summa maara")
    add(
      .amount, 0,
      "osszeg tranzakcioosszege castka castkavkc castkaczk kwotatransakcji kwotaoperacji "
        + "maara maaraeuroa beloppsek belobdkk belopnok "
        + "金額 ご利用金額 利用金額 お取引金額 金额 交易金额 金額円 금액 거래금액")
    add(.amount, 1, "gross value")
    add(.amount, 2, "net")
    add(
      .debit, 0,
      "debit debits soll paidout moneyout withdrawals withdrawal withdrawalamount debitamount debet "
        + "ausgang ausgaben cargo cargos addebiti addebito debito debitos uitgaven amountdebit out outflow outflows belastung lastschrift "
        + "expense expenses"
    )
    add(
      .credit, 0,
      "credit credits haben paidin moneyin deposits deposit depositamount creditamount eingang einnahmen "
        + "abono abonos accrediti accredito credito creditos inkomsten amountcredit in inflow inflows gutschrift "
        + "income incomes")
    add(
      .direction, 0,
      "afbij debitcredit creditdebit dc cd crdr drcr direction sollhaben creditdebitindicator inout "
        + "bijaf indicator")
    add(
      .description, 0,
      "description payee name merchant beguenstigter begunstigter beguenstigterzahlungspflichtiger "
        + "begunstigterzahlungspflichtiger empfanger empfaenger zahlungsempfanger auftraggeber "
        + "auftraggeberempfanger auftraggeberbegunstigter auftraggeberbeguenstigter naamomschrijving naam omschrijving libelle libelleoperation descripcion "
        + "concepto descrizione descricao transactiondescription counterparty merchantname narrative "
        + "beschreibung payeename description1 nomeordenante desc")
    // Generic text columns: used when no column above names the payee.
    add(
      .description, 1,
      "text tekst details transactiondetails narration beskrivelse beskrivning opis popis kuvaus "
        + "mottaker mottagare saaja")
    add(
      .description, 1,
      "memo verwendungszweck mededelingen notes note reference remarks particulars "
        + "description2 additionalinfo communication", primary: false)
    add(.description, 2, "buchungstext vorgang", primary: false)
    add(
      .description, 0,
      "partner partnerneve kedvezmenyezett kedvezmenyezettneve nazwakontrahenta odbiorca kontrahent "
        + "nazevprotiuctu protistrana saajamaksaja mottakernavn partnername namn navn operazione avisierungstext "
        + "beneficiario ordinante "
        + "摘要 内容 お取引内容 ご利用店名 利用店名 交易对方 对方户名 商户名称 描述 내용 적요 거래내용 가맹점명")
    add(
      .description, 1,
      "kozlemeny tytul tytuloperacji zpravaproprijemce viesti selitys meddelande rubrik paymentreference "
        + "dettagli causale 备注 메모",
      primary: false)
    add(.category, 0, "category kategorie categorie categoria categories rubrique")
    add(
      .currency, 0,
      "currency wahrung waehrung munt devise moneda divisa moeda currencycode ccy valuta penznem waluta mena "
        + "valuutta valuta 通貨 货币 币种 幣別 통화")
    // Abbreviations: `Cur`, `Curr.`, `Währ.`, `Whg`.
    add(.currency, 0, "cur curr currcode wahr waehr whg whrg")
    add(.status, 0, "status state estado stato statut transactionstatus")
    add(.fee, 0, "fee fees gebuhr gebuehr gebuhren gebuehren commission kosten frais comision comisiones commissione")
    add(
      .account, 0,
      "account konto rekening iban accountnumber accountname auftragskonto compte cuenta conto "
        + "eigenerekening")
    return table
  }()

  /// Stems for names with extra words (`Amount (EUR)` → `amounteur`, `Betrag in EUR`).
  static let prefixes: [(String, Match)] = [
    ("maara", Match(role: .amount, rank: 3)), ("osszeg", Match(role: .amount, rank: 3)),
    ("kwota", Match(role: .amount, rank: 3)), ("castka", Match(role: .amount, rank: 3)),
    ("belopp", Match(role: .amount, rank: 3)), ("金額", Match(role: .amount, rank: 3)),
    ("gutschrift", Match(role: .credit, rank: 3)), ("lastschrift", Match(role: .debit, rank: 3)),
    ("moneyin", Match(role: .credit, rank: 3)), ("moneyout", Match(role: .debit, rank: 3)),
    ("amount", Match(role: .amount, rank: 3)), ("betrag", Match(role: .amount, rank: 3)),
    ("bedrag", Match(role: .amount, rank: 3)), ("montant", Match(role: .amount, rank: 3)),
    ("importe", Match(role: .amount, rank: 3)), ("importo", Match(role: .amount, rank: 3)),
    ("umsatz", Match(role: .amount, rank: 3)),
    ("transactiondate", Match(role: .date, rank: 3)), ("buchungstag", Match(role: .date, rank: 3)),
    ("datum", Match(role: .date, rank: 4)), ("fecha", Match(role: .date, rank: 4)),
    ("description", Match(role: .description, rank: 3)), ("beguenstigter", Match(role: .description, rank: 3)),
    ("begunstigter", Match(role: .description, rank: 3)),
    ("verwendungszweck", Match(role: .description, rank: 3, primary: false)),
    ("debit", Match(role: .debit, rank: 3)), ("credit", Match(role: .credit, rank: 3)),
    ("paidout", Match(role: .debit, rank: 3)), ("paidin", Match(role: .credit, rank: 3)),
  ]

  static func match(_ name: String) -> Match? {
    if let m = matchWhole(name) { return m }
    // A compound header: "Auftraggeber/Zahlungsempfänger", "Vorgang/Verwendungszweck" name
    // one column by two words; the better ranked part's role is the column's.
    let parts = name.split(separator: "/").map(String.init)
    if parts.count > 1 {
      let matches = parts.compactMap(matchWhole)
      if let best = matches.min(by: { $0.rank < $1.rank }) { return best }
    }
    // A category named with a qualifier: "Spending Category", "Kategorie der Ausgabe".
    let words = name.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
    if words.count > 1, words.contains(where: { categoryWords.contains(normalize($0)) }) {
      return Match(role: .category, rank: 4)
    }
    return nil
  }

  /// The words that name a category in any language this importer reads.
  static let categoryWords: Set<String> = ["category", "kategorie", "categorie", "categoria", "kategori", "kategoria"]

  /// `name` as one header name.
  static func matchWhole(_ name: String) -> Match? {
    let key = normalize(name)
    if key.isEmpty { return nil }
    if let m = exact[key] { return m }
    for (stem, m) in prefixes where key.hasPrefix(stem) { return m }
    if key.hasSuffix("date") { return Match(role: .date, rank: 5) }
    return nil
  }
}
