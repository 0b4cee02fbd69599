import ExpenseCore

/// The stages of `map` that read one cell each: exclusion, date, currency, account, category.
extension RowMapper {
  /// `--skip-when` and an excluded status (pending, declined, ...): the row is left out.
  @inline(__always)
  mutating func exclusion(_ reader: CSVReader) -> Outcome? {
    if !plan.skipWhen.isEmpty {
      for rule in plan.skipWhen where RowMapper.trimmedLowercase(RowMapper.cell(reader, rule.column)) == rule.value {
        return .excluded(line: reader.line, reason: "--skip-when \(rule.text)")
      }
    }
    // Status.
    if let status = plan.status {
      let p = RowMapper.cell(reader, status)
      if !RowMapper.equal(p, lastStatusBytes) {
        lastStatusBytes = Array(p)
        let key = RowMapper.trimmedLowercase(p)
        lastStatusExcluded = RowMapper.excludedStatuses.contains(key)
        if !lastStatusExcluded && !RowMapper.countedStatuses.contains(key) && unknownStatuses.count < 5
          && unknownStatuses.insert(key).inserted
        {
          warnings.append(
            "status \"\(visibleControlCharacters(key))\" is not known; its rows are imported (use --skip-when to exclude them)"
          )
        }
      }
      if lastStatusExcluded {
        return .excluded(
          line: reader.line,
          reason: "status \(String(decoding: lastStatusBytes, as: UTF8.self).trimmingASCIIWhitespace())")
      }
    }
    return nil
  }

  /// The date of a cell, parsed once per run of equal cells.
  @inline(__always)
  mutating func date(_ p: UnsafeBufferPointer<UInt8>) -> CivilDate? {
    let n = p.count
    if n == lastDateCount && (n == 0 || bytesEqual(lastDateBytes, p.baseAddress!, n)) { return lastDate }
    guard let date = DateTokens(p)?.date(dateOrder) else { return nil }
    prefixValid = false
    if n <= RowMapper.dateCacheLength {
      if n > 0 { lastDateBytes.update(from: p.baseAddress!, count: n) }
      lastDateCount = n
    } else {
      lastDateCount = -1
    }
    lastDate = date
    lastDay = date.daysSinceEpoch
    return date
  }

  /// The issue of a row whose date cell is empty or not a date.
  func dateIssue(_ reader: CSVReader) -> ImportIssue {
    let dateBytes = RowMapper.cell(reader, plan.date)
    let empty = !dateBytes.contains { $0 != 0x20 && $0 != 0x09 }
    let range = CivilDate.supportedRange
    if let date = try? CivilDate.parseStored(reader.string(plan.date)), !date.isSupported {
      return issue(
        .badDate, reader, plan.date,
        "the date is outside the supported range \(range.lowerBound) through \(range.upperBound)",
        "expenses keeps dates from \(range.lowerBound.year) through \(range.upperBound.year); check the row's year")
    }
    return issue(
      .badDate, reader, plan.date,
      empty ? "the date is empty" : "not a date in the format \(plan.dateFormat)",
      "dates in this file are read as \(plan.dateFormat); use --date-format to override")
  }

  /// The row's currency (the file's, or the currency column's) and its 3-letter key (0 when
  /// the row has no currency cell of its own); nil (and `failure` set) for a bad code.
  @inline(__always)
  mutating func currency(_ reader: CSVReader) -> (Currency, UInt32)? {
    guard let column = plan.currencyColumn else { return (plan.currency, 0) }
    let p = RowMapper.cell(reader, column)
    var start = 0
    var end = p.count
    while start < end && p[start] == 0x20 { start += 1 }
    while end > start && p[end - 1] == 0x20 { end -= 1 }
    if end == start { return (plan.currency, 0) }  // an empty cell: the file's currency
    if end - start == 3 {
      let key = UInt32(p[start] & 0xDF) << 16 | UInt32(p[start + 1] & 0xDF) << 8 | UInt32(p[start + 2] & 0xDF)
      if key == lastCurrencyKey { return (lastCurrency, key) }
      if let found = Currency(code: String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)) {
        lastCurrencyKey = key
        lastCurrency = found
        return (found, key)
      }
    }
    return fail(
      issue(
        .unknownCurrency, reader, column, "not an ISO 4217 currency code", "use a code such as USD, EUR, GBP or JPY"))
  }

  /// The account column's value, cached: it rarely changes (a change invalidates the
  /// fingerprint's prefix).
  @inline(__always)
  mutating func readAccount(_ reader: CSVReader) {
    if plan.account == nil, let column = plan.accountColumn {
      let p = RowMapper.cell(reader, column)
      let slot = accounts.slot(p)
      if let slot {
        if slot != lastAccountSlot {
          lastAccountSlot = slot
          lastAccount = accounts.values[slot]
          prefixValid = false
        }
      } else {
        let value = cellText(p)
        if !text.failed { accounts.store(p, value) }
        lastAccountSlot = -1
        lastAccount = value
        prefixValid = false
      }
    }
  }

  /// The category cell's stored spelling, cached: categories repeat.
  @inline(__always)
  mutating func category(_ reader: CSVReader) -> String? {
    var category: String?
    if let column = plan.category {
      let p = RowMapper.cell(reader, column)
      if categoryUnset && p.count == 1 && p[0] == 0xFF {
        category = nil
      } else {
        categoryUnset = false
        if let slot = categories.slot(p) {
          category = categories.values[slot]
        } else {
          category = cellText(p)
          if let name = category, let categoryName { category = categoryName(name) }
          if !text.failed { categories.store(p, category) }
        }
      }
    }
    return category
  }
}
