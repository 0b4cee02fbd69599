import ExpenseCore

/// Detection's middle stages: where the table is in the sample's records (preamble, header,
/// data), decided from the records' field counts and what their fields look like.
extension Detector {
  /// The plan before any column is known: the text stages' choices, the first record as the
  /// data's start, the default currency, and `--currency` and `--account` (a bad `--currency`
  /// is refused here, before any column is looked at).
  func initialPlan(
    records: [Record], encoding: TextEncoding, encodingReason: String, fieldText: FieldText, delimiter: UInt8
  ) throws(ImportError) -> Plan {
    var plan = Plan(
      encoding: encoding, encodingReason: encodingReason, fieldText: fieldText, delimiter: delimiter,
      headerLine: nil, dataStartLine: records[0].line, header: [], width: 0, minWidth: 0, roles: [],
      currency: defaultCurrency)
    if let code = options.currency {
      guard let currency = Currency(code: code.trimmingASCIIWhitespace()) else {
        throw .invalidOption(option: "--currency", message: "'\(code)' is not an ISO 4217 code (e.g. USD, EUR, GBP)")
      }
      plan.currency = currency
    }
    plan.account = options.account.flatMap { $0.isEmpty ? nil : $0 }
    return plan
  }

  /// The number of fields most records of two fields or more have (the larger on a tie; 1
  /// when none has two): the width the data rows are expected to have.
  static func widthMode(_ records: [Record]) -> Int {
    var widthCounts: [Int: Int] = [:]
    for r in records where r.fields.count >= 2 { widthCounts[r.fields.count, default: 0] += 1 }
    return widthCounts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key ?? 1
  }

  /// The header and the data's start, into `plan` (header line and names, preamble lines, data
  /// start line, width, fewest fields a row may have); returns the index of the first data
  /// record. The evidence, in order: a header known by its names (`namedHeader`), unless
  /// `--skip-lines` says where the table starts; else the nearest row above the first row that
  /// looks like data which fits the width and is clearly not data; else the first such row.
  func locateTable(_ records: [Record], mode: Int, _ plan: inout Plan) -> Int {
    let firstData = records.firstIndex { $0.fields.count == mode && Detector.looksLikeData($0.fields) }
    var dataIndex = firstData ?? 0
    var headerIndex: Int?
    if options.skipLines == nil, let named = Detector.namedHeader(records, mode: mode) {
      // A header known by its names below a long preamble (a bank's account, period and
      // address lines, some with a date or a number of their own).
      headerIndex = named
      dataIndex = named + 1
    } else if let firstData {
      // The header is the nearest row above the data that fits and is clearly not data. Rows
      // between them that hold a date or an amount (a pending reservation with a word for its
      // date, a row with a stray delimiter, a bad date, an opening balance) belong to the data:
      // they are imported, excluded or rejected with their line, never taken as the header.
      var candidate = firstData - 1
      while candidate >= 0, Detector.mayBeData(records[candidate].fields) { candidate -= 1 }
      if candidate >= 0, abs(records[candidate].fields.count - mode) <= 1, records[candidate].fields.count >= 2 {
        headerIndex = candidate
      }
      dataIndex = candidate + 1
    } else if let index = records.firstIndex(where: {
      abs($0.fields.count - mode) <= 1 && $0.fields.count >= 2 && !Detector.mayBeData($0.fields)
    }) {
      headerIndex = index
      dataIndex = index + 1
    }
    if let headerIndex {
      plan.headerLine = records[headerIndex].line
      plan.header = records[headerIndex].fields.map { $0.trimmingASCIIWhitespace() }
    }
    // Lines skipped before the header (or the data): announced, never dropped silently.
    plan.preambleLines = records[..<(headerIndex ?? dataIndex)].map(\.line)
    plan.dataStartLine = dataIndex < records.count ? records[dataIndex].line : (records[records.count - 1].line + 1)
    plan.width = plan.header.isEmpty ? mode : plan.header.count
    var minWidth = plan.width
    while minWidth > 1 && !plan.header.isEmpty && plan.header[minWidth - 1].isEmpty { minWidth -= 1 }
    plan.minWidth = minWidth
    return dataIndex
  }

  /// The records the columns are judged by: from the data's start, those that fit the width and
  /// are not the header again or a balance line.
  static func dataRows(_ records: [Record], from dataIndex: Int, _ plan: Plan) -> [Record] {
    Array(records[min(dataIndex, records.count)...]).filter {
      Detector.fits($0.fields.count, plan) && !Detector.repeatsHeader($0.fields, plan.header)
        && !Detector.isBalanceRow($0.fields) && !Detector.isDatedBalanceLine($0.fields)
    }
  }
}
