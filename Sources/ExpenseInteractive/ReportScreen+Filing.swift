import ExpenseCore
import ExpenseRender

/// Filing a row into a category where it is read: `f` on a row asks for the category (Tab
/// completes over the ledger's names), the driver looks for a rule worth offering, `y` adds it
/// too, and `u` undoes the last change. The screen only asks: every write is an effect the
/// driver hands to the service the CLI uses.
extension ReportScreen {
  /// `f`: starts typing the category of the row under the cursor.
  mutating func startFiling() -> [ScreenEffect] {
    guard case .row(let index) = cursor, report.expenses?[index].id != nil else {
      message = "f files a row: move to one in Expenses first"
      return []
    }
    mode = .category(row: index, text: "")
    return []
  }

  /// The ledger's name `text` completes to (the first whose name starts with it, ignoring case).
  public func completion(of text: String) -> String? {
    guard !text.isEmpty else { return nil }
    let typed = text.lowercased()
    return categoryNames.sorted { $0.lowercased() < $1.lowercased() }.first { $0.lowercased().hasPrefix(typed) }
  }

  mutating func handleCategory(_ key: Key, row: Int, text: String) -> [ScreenEffect] {
    var text = text
    switch key {
    case .escape, .interrupt:
      mode = .browse
      message = "nothing was changed"
      return []
    case .backspace:
      if !text.isEmpty { text.removeLast() }
    case .tab:
      text = completion(of: text) ?? text
    case .enter:
      let typed = text.trimmingCharacters(in: .whitespaces)
      guard !typed.isEmpty, let id = report.expenses?[row].id else {
        mode = .browse
        message = "nothing was changed"
        return []
      }
      // A name the ledger knows, typed in other letters, is that name.
      let known = categoryNames.first { $0.lowercased() == typed.lowercased() } ?? typed
      mode = .browse
      return [.proposeCategory(expenseID: id, category: known)]
    case .character(let character):
      text.append(character)
    default:
      return []
    }
    mode = .category(row: row, text: text)
    return []
  }

  /// The driver's answer to `proposeCategory`: a rule to offer (asked with y/n), or none (the
  /// row is filed at once).
  public mutating func offerRule(
    expenseID: Int64, category: String, pattern: String?, moreRows: Int
  ) -> [ScreenEffect] {
    guard let pattern, let row = report.expenses?.firstIndex(where: { $0.id == expenseID }) else {
      return [.file(expenseID: expenseID, category: category, rulePattern: nil)]
    }
    mode = .confirmRule(row: row, category: category, pattern: pattern, moreRows: moreRows)
    return []
  }

  mutating func handleConfirm(_ key: Key, row: Int, category: String, pattern: String) -> [ScreenEffect] {
    guard let id = report.expenses?[row].id else {
      mode = .browse
      return []
    }
    switch key {
    case .character("y"), .character("Y"):
      mode = .browse
      return [.file(expenseID: id, category: category, rulePattern: pattern)]
    case .character("n"), .character("N"), .enter:
      mode = .browse
      return [.file(expenseID: id, category: category, rulePattern: nil)]
    case .escape, .interrupt:
      mode = .browse
      message = "nothing was changed"
      return []
    default:
      return []
    }
  }

  /// The status line's prompt while filing; nil in other modes.
  var filingPrompt: String? {
    switch mode {
    case .category(_, let text):
      let shown = TerminalText.sanitize(text)
      var prompt = "Category: " + shown + "_"
      if let done = completion(of: text), done != text { prompt += "  Tab: " + TerminalText.sanitize(done) }
      return prompt
    case .confirmRule(_, let category, let pattern, let more):
      let rows = more == 0 ? "no other row yet" : more == 1 ? "1 more row" : "\(more) more rows"
      return "Also rule '\(TerminalText.sanitize(pattern))' → \(TerminalText.sanitize(category)) (\(rows))? y/n"
    default:
      return nil
    }
  }
}
