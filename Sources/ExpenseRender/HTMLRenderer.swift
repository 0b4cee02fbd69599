import ExpenseCore

/// The report as one self-contained HTML page: inline CSS, no script, no network.
///
/// A pure function of the report and the section states, so the CLI (`report --format html`)
/// and the server render the same bytes. The summary is always shown; every other section is a
/// `<details>` whose `<summary>` carries chevron, title, count and the bad news, `open` as the
/// states say, and holding its whole content (collapsed only hides it). The category section is
/// drawn twice: as cards in a collapsible `<details>` for narrow viewports, and as a static
/// table for wider ones (collapsible only in compact width, as in the terminal); CSS shows one of them.
/// Every text that came from a bank file is escaped (`escape`), and a Content-Security-Policy
/// forbids scripts, so even a missed escape could not run anything.
///
/// The page `expenses serve` answers is the same page plus one script (`script`, a same-origin
/// path) that saves a section when it is toggled: its policy allows scripts and requests from
/// the page's own origin only, so an injected inline script still could not run. Without a
/// script (the CLI) the output is the static page, byte for byte.
public struct HTMLRenderer {
  public let sections: SectionStates
  /// The path of the served page's one script (`/page.js`); nil for the static page.
  public let script: String?
  /// The served page's month links and hooks (`PageLinks`); nil for the static page.
  public let links: PageLinks?

  public init(sections: SectionStates, script: String? = nil, links: PageLinks? = nil) {
    self.sections = sections
    self.script = script
    self.links = links
  }

  /// The static page's policy: inline CSS, nothing else.
  static let staticPolicy = "default-src 'none'; style-src 'unsafe-inline'"
  /// The served page's: the same, plus a script and requests from the page's own origin.
  public static let servedPolicy = staticPolicy + "; script-src 'self'; connect-src 'self'"

  let amounts = Amounts(ascii: false, short: false, dash: "—")

  public func render(_ report: BudgetReport) -> String {
    let title = "\(report.month.longName) budget"
    var out = [
      "<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
      "<meta name=\"color-scheme\" content=\"light dark\">",
      "<meta http-equiv=\"Content-Security-Policy\" content=\"\(script == nil ? Self.staticPolicy : Self.servedPolicy)\">",
      "<title>\(title)</title>", "<style>", HTMLStyle.css, "</style>",
    ]
    if let script { out.append("<script src=\"\(HTMLRenderer.escape(script))\" defer></script>") }
    if links != nil { out += ["<style>", Self.servedCSS, "</style>"] }
    let hooks =
      links.map { " data-currency=\"\($0.currency.code)\" data-minor-digits=\"\($0.currency.minorUnits)\"" } ?? ""
    out += ["</head>", "<body>", "<main\(hooks)>", "<header><h1>\(title)</h1>"]
    let codes = report.groups.map(\.currency.code).joined(separator: " ")
    let asOf = "<p class=\"asof\">as of \(report.today)\(codes.isEmpty ? "" : " · " + codes)</p>"
    if let links {
      out += [asOf] + monthNavigation(links) + ["</header>"]
    } else {
      out.append(asOf + "</header>")
    }
    if report.groups.isEmpty && (report.expenses ?? []).isEmpty {
      out += [
        "<p>No expenses or budgets for \(report.month.longName).</p>",
        "<p>Import a bank file: <code>expenses import FILE</code><br>"
          + "Set a budget: <code>expenses budget set CATEGORY AMOUNT</code></p>",
      ]
    } else {
      out += summarySection(report)
      out += categorySections(report)
      out += goalsSection(report)
      out += accountsSection(report)
      out += recurringSection(report)
      out += tagsSection(report)
      out += expensesSection(report)
      out += trendsSection(report)
    }
    out += ["</main>", "</body>", "</html>", ""]
    return out.joined(separator: "\n")
  }

  // MARK: Summary

  /// The summary: never collapsible, so a plain `<section>` with a heading.
  func summarySection(_ report: BudgetReport) -> [String] {
    var out = ["<section class=\"section\" id=\"summary\" data-section=\"summary\">", "<h2>Summary</h2>"]
    for group in report.groups {
      if report.groups.count > 1 { out.append("<h3>\(group.currency.code)</h3>") }
      var lines = SummaryLines.lines(group, amounts).map(HTMLRenderer.escape)
      var days: [String] = []
      if let left = report.daysLeft { days.append(left == 1 ? "1 day left" : "\(left) days left") }
      if let perDay = group.dailyAllowanceMinor {
        days.append("\(HTMLRenderer.escape(amounts.money(perDay, group.currency))) a day")
      }
      if !days.isEmpty { lines.insert(days.joined(separator: " · "), at: min(2, lines.count)) }
      let total = group.totals.row
      out.append("<ul class=\"facts\">" + lines.map { "<li>\($0)</li>" }.joined() + "</ul>")
      if let percent = total.percentUsed {
        out.append(bar(percent, total.status, label: "\(amounts.percent(percent)) of the budget used"))
      }
    }
    out.append("</section>")
    return out
  }

  // MARK: Section frame

  /// `Category Performance (8 · 2 over)`: the count and the bad news, as the terminal says it.
  static func countText(_ count: String, bad: String?) -> String {
    "(" + ([count] + (bad.map { [$0] } ?? [])).joined(separator: " · ") + ")"
  }

  /// A collapsible section: `<details>` with the chevron, title and count in its `<summary>`.
  func details(
    _ id: SectionID, domID: String, count: String, extraClass: String = "", body: [String]
  ) -> [String] {
    let open = sections.isExpanded(id) ? " open" : ""
    return [
      "<details class=\"section\(extraClass)\" id=\"\(domID)\" data-section=\"\(id.rawValue)\"\(open)>",
      "<summary><span class=\"chev\" aria-hidden=\"true\">▶</span><span class=\"title\">\(id.title)</span>"
        + " <span class=\"count\">\(count)</span></summary>",
      "<div class=\"body\">",
    ] + body + ["</div>", "</details>"]
  }

  /// A CSS bar for a percent used: full past 100 % with an end marker; a text label for
  /// screen readers (the percent is also printed beside it).
  func bar(_ percent: Percent, _ status: BudgetStatus, label: String) -> String {
    let clamped = max(0, min(percent.tenths, 1000))
    let width = "\(clamped / 10).\(clamped % 10)%"
    let past = percent.tenths > 1000 ? " past" : ""
    return "<span class=\"bar \(status.rawValue)\(past)\" role=\"img\" aria-label=\"\(HTMLRenderer.escape(label))\">"
      + "<span style=\"width:\(width)\"></span></span>"
  }

  /// `▲ over`, `● near`, `✓ under`, `no budget`: the status in words, coloured by its class.
  static func statusText(_ row: CategoryBenchmark) -> String {
    if row.aheadOfPace { return "<span class=\"near\">● ahead of pace</span>" }
    switch row.status {
    case .over: return "<span class=\"over\">▲ over</span>"
    case .near: return "<span class=\"near\">● near</span>"
    case .under: return "<span class=\"under\">✓ under</span>"
    case .unbudgeted: return "<span class=\"muted\">no budget</span>"
    }
  }

  /// `&`, `<`, `>`, `"` and `'` as entities; control characters (never valid in HTML text) as U+FFFD.
  static func escape(_ s: String) -> String {
    var out = ""
    // Controls and bidirectional overrides made visible first (one sanitizer for every format).
    for scalar in TerminalText.sanitize(s).unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default:
        let v = scalar.value
        if (v < 0x20 && v != 0x09 && v != 0x0A) || (0x7F..<0xA0).contains(v) {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}
