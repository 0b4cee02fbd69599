import ExpenseCore
import ExpenseInteractive
import ExpenseRender
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The full-screen report (`report --interactive`, `browse`): reads keys, feeds them to the
/// pure `ReportScreen`, carries out its effects through `InteractiveData`, draws its frames.
struct InteractiveReport {
  var data: InteractiveData
  var month: Month
  var today: CivilDate
  var settings: ScreenSettings
  var sections: SectionStates
  var accordion: Bool

  /// Fails with exit 64 unless stdin and stdout are both terminals.
  static func requireTerminal() throws {
    let missing = [("standard input", STDIN_FILENO), ("standard output", STDOUT_FILENO)]
      .filter { !TerminalEnvironment.isTerminal($0.1) }.map(\.0)
    guard missing.isEmpty else {
      throw CLIFailure(
        message: "the interactive report needs a terminal, but \(missing.joined(separator: " and ")) "
          + "\(missing.count == 1 ? "is" : "are") not one; use 'expenses report' to print it",
        kind: .usage)
    }
  }

  /// How the screen ended: 0 for `q`, 128 + the signal for a signal (130 for Ctrl-C).
  func run() throws -> Int32 {
    let report = try data.report(month: month, today: today)
    try Console.flush()
    let session = try TerminalSession()
    defer { session.restore() }
    try session.start()
    let size = session.size()
    var screen = ReportScreen(
      report: report, width: size.width, height: size.height, preferences: sections, accordion: accordion,
      settings: settings)
    screen.categoryNames = (try? data.categoryNames()) ?? []
    return try loop(&screen, session)
  }

  private func loop(_ screen: inout ReportScreen, _ session: TerminalSession) throws -> Int32 {
    let writer = FrameWriter(output: session.output)
    var decoder = KeyDecoder()
    var buffer = [UInt8](repeating: 0, count: 4096)
    var full = true
    while true {
      do {
        let seconds = try writer.draw(screen.frame(), color: settings.color, full: full)
        // A link this slow makes a reveal a stutter: open sections at once from now on.
        if seconds > 0.04 {
          screen.animates = false
          screen.finishReveal()
        }
      } catch {
        return 0  // the terminal went away (a hangup): nothing left to draw on
      }
      full = false
      let timeout: Int32 = screen.isRevealing ? 50 : decoder.hasPending ? 30 : -1
      var fds = [pollfd(fd: session.input, events: Int16(POLLIN), revents: 0)]
      fds.append(pollfd(fd: session.signals, events: Int16(POLLIN), revents: 0))
      let ready = poll(&fds, 2, timeout)
      if ready < 0 {
        if errno == EINTR { continue }
        throw CLIFailure(message: "cannot read the terminal: \(String(cString: strerror(errno)))", kind: .io)
      }
      var keys: [Key] = []
      if ready == 0 {
        if decoder.hasPending { keys = decoder.flush() } else { screen.advanceReveal() }
      }
      for number in session.pendingSignals() {
        if number == SIGWINCH {
          let size = session.size()
          screen.resize(width: size.width, height: size.height)
          full = true
        } else {
          return 128 + number
        }
      }
      if fds[0].revents != 0 {
        let count = read(session.input, &buffer, buffer.count)
        if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return 0 }  // the terminal closed
        if count > 0 { keys += decoder.feed(buffer[0..<count]) }
      }
      for key in keys {
        if key == .redraw {
          full = true
          continue
        }
        for effect in screen.handle(key) {
          if case .quit = effect { return key == .interrupt ? 130 : 0 }
          perform(effect, on: &screen)
        }
      }
    }
  }

  /// Saves or loads what the screen asked for; a failure is shown on the status line and the
  /// screen stays (a locked database must not throw away the screen).
  private func perform(_ effect: ScreenEffect, on screen: inout ReportScreen) {
    do {
      switch effect {
      case .saveSections(let states): try data.saveSections(states)
      case .saveAccordion(let on): try data.saveAccordion(on)
      case .loadMonth(let month): screen.replaceReport(try data.report(month: month, today: today))
      case .proposeCategory(let id, let category):
        let offer = try data.ruleOffer(expenseID: id, category: category)
        for next in screen.offerRule(
          expenseID: id, category: offer?.category ?? category, pattern: offer?.pattern, moreRows: offer?.moreRows ?? 0)
        {
          perform(next, on: &screen)
        }
      case .file(let id, let category, let pattern):
        let filed = try data.file(expenseID: id, category: category, rulePattern: pattern)
        var notice = "#\(id) filed into \(filed.expense.category ?? category)"
        if let rule = filed.rule { notice += " + rule \(rule.id) (\(filed.moreRows) more)" }
        refresh(&screen, notice: notice + " · u undoes")
      case .undo:
        let undone = try data.undo()
        refresh(&screen, notice: "undid #\(undone.undone.id) \(undone.undone.summary)")
      case .search(let text):
        let found = try data.search(text)
        screen.showSearch(text, results: found.rows, total: found.total)
      case .quit: break
      }
    } catch {
      let failure = CLIFailure(error)?.message ?? "\(error)"
      screen.notify("not saved: " + (failure.split(separator: "\n").first.map(String.init) ?? failure))
    }
  }

  /// The shown month's report again after a change, and the names to complete over.
  private func refresh(_ screen: inout ReportScreen, notice: String) {
    do {
      screen.categoryNames = try data.categoryNames()
      screen.refreshReport(try data.report(month: screen.report.month, today: today), notice: notice)
    } catch {
      screen.notify("changed; the report could not be read again: " + (CLIFailure(error)?.message ?? "\(error)"))
    }
  }
}
