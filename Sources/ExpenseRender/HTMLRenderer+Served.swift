import ExpenseCore

/// What only the served page has (`expenses serve`), none of it in the static page: links to
/// the months around (and a month picker, a plain GET form), which work without a script, and
/// the hooks the page's script hangs its controls on (each expense row's id, the currency
/// budgets are typed in). The writing itself is the script's, through the API.
public struct PageLinks: Sendable, Equatable {
  /// The month shown, and the "today" the page was asked with (kept in every link), if any.
  public var month: Month
  public var today: CivilDate?
  /// The currency a budget typed on the page is in (the store's default), and its digits.
  public var currency: Currency

  public init(month: Month, today: CivilDate?, currency: Currency) {
    self.month = month
    self.today = today
    self.currency = currency
  }

  /// The page of `month`, with the pinned day when the month holds it.
  func href(_ month: Month) -> String {
    let day = today.map { "?today=\($0)" } ?? ""
    return "/reports/\(month)\(day)"
  }
}

extension HTMLRenderer {
  /// The served page's navigation: the month before, a picker, the month after.
  func monthNavigation(_ links: PageLinks) -> [String] {
    let previous = links.month.adding(months: -1)
    let next = links.month.adding(months: 1)
    var out = ["<nav class=\"months\" aria-label=\"Months\">"]
    if previous.isSupported {
      out.append("<a rel=\"prev\" href=\"\(HTMLRenderer.escape(links.href(previous)))\">‹ \(previous.longName)</a>")
    }
    out.append("<form method=\"get\" action=\"/reports\">")
    out.append(
      "<label>Month <input type=\"month\" name=\"month\" value=\"\(links.month)\" required></label>")
    if let today = links.today { out.append("<input type=\"hidden\" name=\"today\" value=\"\(today)\">") }
    out.append("<button type=\"submit\">Show</button></form>")
    if next.isSupported {
      out.append("<a rel=\"next\" href=\"\(HTMLRenderer.escape(links.href(next)))\">\(next.longName) ›</a>")
    }
    out.append("</nav>")
    return out
  }

  /// The served page's own style: the navigation and the script's controls wrap at any width.
  static let servedCSS = """
    .months{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:center;margin:.4rem 0}
    .months form,.work form{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center;margin:0}
    .months input,.work input{max-width:100%;min-width:0;font:inherit}
    .work label{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center;min-width:0;max-width:100%}
    .work input[type=file]{width:100%;max-width:20rem}
    button{font:inherit}
    .work{margin:.6rem 0}
    .work .preview{margin:.4rem 0}
    .inline-file{display:flex;flex-wrap:wrap;gap:.3rem;margin-top:.2rem}
    .inline-file input{min-width:0;flex:1 1 8rem}
    """
}
