import ExpenseCore
import ExpenseRender

/// Drawing: the report lines on screen, the status line, the keys help, the too-small notice.
extension ReportScreen {
  /// The keys, as `?` shows them and docs/interactive.md lists them.
  public static let keyHelp: [(keys: String, action: String)] = [
    ("Up/Down j/k", "move between headers and rows"),
    ("Space Enter", "fold/unfold a section, expand a row"),
    ("Right/Left", "expand / collapse"),
    ("e / c", "expand all / collapse all"),
    ("a", "accordion mode on/off"),
    ("PgUp PgDn", "a page up / down"),
    ("Home/End g/G", "first / last"),
    ("/", "filter rows (Enter keeps, Esc undoes)"),
    ("Tab", "after /: search all months (Esc back)"),
    ("m [ / M ]", "previous / next month"),
    ("f", "file the row into a category"),
    ("u", "undo the last change"),
    ("?", "these keys"),
    ("q Esc", "quit"),
  ]

  /// The screen as text: `height` lines, none wider than `width` cells (a window below the
  /// minimum gets a notice that fits it).
  public mutating func frame() -> Frame {
    if isTooSmall { return tooSmallFrame() }
    var lines: [String]
    var highlighted: Int? = nil
    if mode == .help {
      lines = helpLines()
    } else {
      lines = []
      lines.reserveCapacity(bodyHeight)
      let cursorBlock = cursor.flatMap { layout.index(of: $0) }.map { layout.itemBlocks[$0] }
      if layout.total > 0 {
        var block = layout.block(at: scroll)
        var skip = scroll - layout.starts[block]
        while lines.count < bodyHeight && block < layout.blocks.count {
          if block == cursorBlock && skip == 0 { highlighted = lines.count }
          let text = blockLines(layout.blocks[block])
          for line in text.dropFirst(skip) where lines.count < bodyHeight { lines.append(line) }
          skip = 0
          block += 1
        }
      }
    }
    lines = lines.map(fitted)
    while lines.count < bodyHeight { lines.append("") }
    lines.append(statusLine())
    return Frame(lines: lines, highlighted: highlighted, status: lines.count - 1, width: width)
  }

  /// The text of one block: a row gets its indicator, and its details when expanded.
  mutating func blockLines(_ block: ScreenLayout.Block) -> [String] {
    switch block.source {
    case .text(let lines): return lines
    case .row(let index):
      guard let content, content.rows.indices.contains(index) else { return [] }
      let open = expandedRows.contains(index)
      let row = content.rows[index]
      var lines = [(open ? glyphs.rowOpen : glyphs.rowClosed) + " " + row[0]] + row.dropFirst().map { "  " + $0 }
      if open { lines += details(for: index) }
      return lines
    }
  }

  func fitted(_ line: String) -> String {
    DisplayWidth.of(line, limit: width) <= width
      ? line : DisplayWidth.truncate(line, to: width, ellipsis: glyphs.ellipsis)
  }

  /// `? keys · q quit` or the filter or a notice on the left; the month and the cursor's row
  /// on the right, which gives way first.
  func statusLine() -> String {
    let g = glyphs
    let left: String
    if case .filter = mode {
      left = "/" + TerminalText.sanitize(filter) + "_" + (searchAllMonths ? " \(g.separator) all months" : "")
    } else if let prompt = filingPrompt {
      // The prompt alone: the end of what is typed stays on screen at any width.
      let promptWidth = DisplayWidth.of(prompt)
      return promptWidth <= width
        ? prompt + String(repeating: " ", count: width - promptWidth)
        : DisplayWidth.truncate(prompt, to: width, ellipsis: g.ellipsis)
    } else if let message {
      left = message
    } else if !filter.isEmpty {
      let shown = content?.rowIndices.count ?? 0
      left = "filter \"\(TerminalText.sanitize(filter))\" \(g.separator) \(shown) of \(report.expenses?.count ?? 0)"
    } else if mode == .help {
      left = "any key closes"
    } else {
      left = "? keys \(g.separator) q quit"
    }
    var right = "\(report.month.shortName) \(report.month.year)"
    if case .row = cursor, let cursor, let content, let itemIndex = layout.index(of: cursor),
      let first = layout.index(of: .header(.expenses))
    {
      right = "\(itemIndex - first)/\(content.rowIndices.count) \(g.separator) " + right
    }
    let leftWidth = DisplayWidth.of(left)
    let rightWidth = DisplayWidth.of(right)
    if leftWidth + 2 + rightWidth <= width {
      return left + String(repeating: " ", count: width - leftWidth - rightWidth) + right
    }
    return DisplayWidth.truncate(left, to: width, ellipsis: g.ellipsis)
  }

  /// The keys help at any width: keys and action side by side when the actions get at least
  /// 12 cells, else the action under its keys; an action too long for its room is wrapped
  /// (never cut off), so every word of the help is on screen at 20 columns as at 200.
  func helpLines() -> [String] {
    let keyWidth = ReportScreen.keyHelp.map { DisplayWidth.of($0.keys) }.max() ?? 0
    var lines = ["Keys", ""]
    for (keys, action) in ReportScreen.keyHelp {
      if width >= keyWidth + 2 + 12 {
        let indent = String(repeating: " ", count: keyWidth + 2)
        let padded = keys + String(repeating: " ", count: keyWidth + 2 - DisplayWidth.of(keys))
        for (index, line) in FittedText.fit(line: action, width: width - keyWidth - 2).enumerated() {
          lines.append((index == 0 ? padded : indent) + line)
        }
      } else {
        lines += FittedText.fit(line: keys, width: width)
        lines += FittedText.fit(line: "  " + action, width: width)
      }
    }
    lines.append("")
    lines += FittedText.fit(line: "Mouse: click a header or a row.", width: width)
    lines += FittedText.fit(line: "Folds are saved as you go.", width: width)
    return Array(lines.prefix(bodyHeight))
  }

  /// Below 20 columns or 5 rows: what is wrong and what is needed, cut to the window.
  func tooSmallFrame() -> Frame {
    let w = max(0, width)
    let h = max(0, height)
    let words = [
      "Window too small", "(\(width)x\(height)).", "Needs at least",
      "\(ReportScreen.minimumWidth)x\(ReportScreen.minimumHeight).",
      "q quits.",
    ]
    var lines: [String] = []
    var current = ""
    for word in words {
      if current.isEmpty {
        current = word
      } else if DisplayWidth.of(current) + 1 + DisplayWidth.of(word) <= w {
        current += " " + word
      } else {
        lines.append(current)
        current = word
      }
    }
    if !current.isEmpty { lines.append(current) }
    lines = lines.prefix(h).map { DisplayWidth.truncate($0, to: w, ellipsis: "") }
    while lines.count < h { lines.append("") }
    return Frame(lines: lines, width: w)
  }
}
