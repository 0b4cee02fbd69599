import ExpenseCore

/// Detection's role stage: what each column is, from the options, the header's names, or
/// without a header the sampled values alone.
extension Detector {
  /// The columns' roles into `plan`: `--columns` by position, else from the header's names,
  /// else inferred from the values of a file without a header (`mode`: the width most records
  /// have, which `--columns` on a file without a header may need); then each `--column
  /// NAME=role` over them (refused when no column has that name). Ends with the columns'
  /// indexes resolved and up to two sampled values per column for the dialect's description.
  func assignRoles(_ plan: inout Plan, data: [Record], mode: Int) throws(ImportError) {
    if let columns = options.columns {
      for (i, role) in columns.enumerated() where role != .ignore { plan.assign(role, i) }
      if plan.width < columns.count && plan.header.isEmpty { plan.width = max(plan.width, mode) }
    } else if !plan.header.isEmpty {
      try assignFromHeader(&plan, data: data)
    } else {
      inferHeaderless(&plan, data: data)
    }
    for (name, role) in options.namedColumns.sorted(by: { $0.key < $1.key }) {
      let key = HeaderNames.normalize(name)
      guard
        let index = plan.header.firstIndex(where: { $0.lowercased() == name.lowercased() })
          ?? plan.header.firstIndex(where: { HeaderNames.normalize($0) == key && !key.isEmpty })
      else {
        throw .invalidOption(
          option: "--column",
          message: "no column named '\(name)'; the header has: \(plan.header.joined(separator: ", "))")
      }
      // The named role replaces any column that had it (one amount, one date …).
      if role != .description && role != .ignore {
        for i in plan.roles.indices where plan.roles[i] == role { plan.roles[i] = nil }
      }
      plan.assign(role == .ignore ? .ignore : role, index)
    }
    plan.resolveIndexes()
    plan.samples = (0..<max(plan.width, plan.roles.count)).map {
      Array(plan.values($0).prefix(2))
    }
  }

  /// Roles from the header's names (`HeaderNames`), each checked against the column's sampled
  /// values: the best-ranked column of each role, one or two description columns (a primary
  /// text and a memo, leaving out a text that is the same on every row). Refuses two columns of
  /// one name that would both do, where which one the bank meant is a guess.
  func assignFromHeader(_ plan: inout Plan, data: [Record]) throws(ImportError) {
    var matches: [(index: Int, match: HeaderNames.Match)] = []
    for (i, name) in plan.header.enumerated() {
      guard var m = HeaderNames.match(name) else { continue }
      // A column empty in every sampled row never gets a role: an empty "Amount" beside
      // Soll/Haben, an empty "Dátum" beside the booking date.
      if !data.isEmpty && plan.values(i).isEmpty { continue }
      // A name is not enough: the values must fit the role (a card type under "Debit/Credit",
      // transaction-type words under "Amount Type" are neither a direction nor an amount).
      if !data.isEmpty && !DetectorColumns.valuesFit(m.role, plan.values(i)) { continue }
      if HeaderNames.normalize(name) == "valuta" {
        // Dutch/Italian "Valuta" is a currency, German "Valuta" a value date: look at the values.
        let values = data.prefix(50).compactMap { i < $0.fields.count ? $0.fields[i].trimmingASCIIWhitespace() : nil }
          .filter { !$0.isEmpty }
        if !values.isEmpty && values.allSatisfy(Detector.parsesAsDate) { m = HeaderNames.Match(role: .date, rank: 2) }
      }
      matches.append((i, m))
    }
    for role in ColumnRole.allCases where role != .description && role != .ignore {
      let candidates = matches.filter { $0.match.role == role }
      if let best = candidates.min(by: { ($0.match.rank, $0.index) < ($1.match.rank, $1.index) }) {
        // Two columns of one name that would both do: which one the bank meant is a guess.
        let key = HeaderNames.normalize(plan.header[best.index])
        if let twin = candidates.first(where: {
          $0.index != best.index && HeaderNames.normalize(plan.header[$0.index]) == key
        }) {
          let name = visibleControlCharacters(plan.header[best.index])
          throw .undetectable(
            file: file,
            message:
              "line \(plan.headerLine ?? 1): two columns are named \"\(name)\" (columns \(best.index + 1) and \(twin.index + 1)); which one is the \(role.rawValue) cannot be told",
            hint: "give every column's role by position with --columns (use - for a column to ignore)")
        }
        plan.assign(role, best.index)
      }
    }
    var texts = matches.filter { $0.match.role == .description }
    // A column with the same text on every row (a product name, the account holder) says
    // nothing about a transaction: the other text columns are the description when there are
    // any. (A memo filled on some rows only is not constant.)
    if data.count >= 2 {
      let varied = texts.filter { plan.values($0.index).count < data.count || Set(plan.values($0.index)).count > 1 }
      if !varied.isEmpty { texts = varied }
    }
    let primary = texts.filter { $0.match.primary }.min(by: { ($0.match.rank, $0.index) < ($1.match.rank, $1.index) })
    let memo = texts.filter { !$0.match.primary }.min(by: { ($0.match.rank, $0.index) < ($1.match.rank, $1.index) })
    for chosen in [primary, memo].compactMap({ $0 }).sorted(by: { $0.index < $1.index }) {
      plan.assign(.description, chosen.index)
    }
  }

  /// Without a header: the date column, an amount column and the longest text column.
  func inferHeaderless(_ plan: inout Plan, data: [Record]) {
    let rows = data.prefix(200)
    guard !rows.isEmpty else { return }
    func column(_ i: Int) -> [String] {
      rows.map { i < $0.fields.count ? $0.fields[i].trimmingASCIIWhitespace() : "" }
    }
    var dateIndex: Int?
    var amountIndex: Int?
    var textIndex: Int?
    var longest = 0
    for i in 0..<plan.width {
      let values = column(i).filter { !$0.isEmpty }
      if values.isEmpty { continue }
      // Dates out of range (`9999-12-31`) still make a date column; their rows are rejected.
      if dateIndex == nil && values.allSatisfy(Detector.looksLikeDateShape)
        && values.contains(where: Detector.parsesAsDate)
      {
        dateIndex = i
      } else if amountIndex == nil && values.allSatisfy(Detector.looksLikeAmount)
        && values.contains(where: { $0.contains(".") || $0.contains(",") || $0.hasPrefix("-") })
      {
        amountIndex = i
      } else if !values.allSatisfy(Detector.looksLikeAmount) {
        let total = values.reduce(0) { $0 + $1.count }
        if total > longest {
          longest = total
          textIndex = i
        }
      }
    }
    if let dateIndex { plan.assign(.date, dateIndex) }
    if let amountIndex { plan.assign(.amount, amountIndex) }
    if let textIndex { plan.assign(.description, textIndex) }
    if dateIndex != nil && amountIndex != nil {
      let roles = plan.roles.map { $0?.rawValue ?? "-" }.joined(separator: ",")
      plan.warnings.append("the file has no header row; guessed the columns as --columns \(roles)")
    }
  }

  /// Refuses a plan without a date column or an amount (or debit and credit) column, naming the
  /// columns and the flag that gives the role; warns when no column is the description.
  func requireColumns(_ plan: inout Plan) throws(ImportError) {
    let names = plan.header.isEmpty ? "(no header row)" : plan.header.map { "'\($0)'" }.joined(separator: ", ")
    if plan.date < 0 {
      throw .undetectable(
        file: file, message: "no date column found; columns: \(names)",
        hint: plan.header.isEmpty
          ? "give the roles with --columns, e.g. --columns date,description,amount"
          : "name it with --column NAME=date, or give all roles with --columns")
    }
    if plan.amount == nil && plan.debit == nil && plan.credit == nil {
      throw .undetectable(
        file: file, message: "no amount column found (amount, or debit and credit); columns: \(names)",
        hint: plan.header.isEmpty
          ? "give the roles with --columns, e.g. --columns date,description,amount"
          : "name it with --column NAME=amount (or NAME=debit and NAME=credit)")
    }
    if plan.descriptions.isEmpty {
      plan.warnings.append("no description column found; rows get an empty description (use --column NAME=description)")
    }
  }
}
