import ExpenseCore
import ExpenseRender

/// What each key does (the list `?` shows is `ReportScreen.keyHelp`).
extension ReportScreen {
  /// Applies one key and returns what the driver must do.
  public mutating func handle(_ key: Key) -> [ScreenEffect] {
    message = nil
    if reveal != nil { finishReveal() }
    switch mode {
    case .help:
      if key == .character("q") || key == .interrupt { return [.quit] }
      mode = .browse
      return []
    case .filter(let previous):
      return handleFilter(key, previous: previous)
    case .category(let row, let text):
      return handleCategory(key, row: row, text: text)
    case .confirmRule(let row, let category, let pattern, _):
      return handleConfirm(key, row: row, category: category, pattern: pattern)
    case .browse:
      break
    }
    if isTooSmall {
      return key == .character("q") || key == .escape || key == .interrupt ? [.quit] : []
    }
    if searchShown != nil, key == .escape {
      leaveSearch()
      return []
    }
    switch key {
    case .character("q"), .escape, .interrupt: return [.quit]
    case .up, .character("k"): move(by: -1)
    case .down, .character("j"): move(by: 1)
    case .pageUp: page(-1)
    case .pageDown: page(1)
    case .home, .character("g"): jump(toEnd: false)
    case .end, .character("G"): jump(toEnd: true)
    case .enter, .character(" "): return activate()
    case .right, .character("l"): return open(true)
    case .left, .character("h"): return open(false)
    case .character("e"): return expandAll()
    case .character("c"): return collapseAll()
    case .character("a"): return toggleAccordion()
    case .character("/"): mode = .filter(previous: filter)
    case .character("m"), .character("["): return step(months: -1)
    case .character("M"), .character("]"): return step(months: 1)
    case .character("f"): return startFiling()
    case .character("u"): return [.undo]
    case .character("?"): mode = .help
    case .mouse(let event): return mouse(event)
    default: break
    }
    return []
  }

  // MARK: Moving

  mutating func move(by step: Int) {
    guard let cursor, let index = layout.index(of: cursor) else {
      self.cursor = layout.items.first
      return
    }
    let target = max(0, min(layout.items.count - 1, index + step))
    self.cursor = layout.items[target]
    ensureCursorVisible()
  }

  /// PgUp/PgDn: the screen moves by a page less one line and the cursor with it.
  mutating func page(_ direction: Int) {
    let step = max(1, bodyHeight - 1) * direction
    let line = cursor.flatMap { layout.range(of: $0) }?.lowerBound ?? scroll
    scroll = max(0, min(scroll + step, max(0, layout.total - bodyHeight)))
    cursor = direction > 0 ? layout.item(atOrBefore: line + step) : layout.item(atOrAfter: line + step)
    ensureCursorVisible()
  }

  mutating func jump(toEnd: Bool) {
    cursor = toEnd ? layout.items.last : layout.items.first
    scroll = toEnd ? max(0, layout.total - bodyHeight) : 0
    ensureCursorVisible()
  }

  /// The month before or after this one; nothing past the ends of `Month.supportedRange`
  /// (no report can hold data there).
  func step(months: Int) -> [ScreenEffect] {
    let target = report.month.adding(months: months)
    return target.isSupported && target != report.month ? [.loadMonth(target)] : []
  }

  // MARK: Folding

  /// Space/Enter: fold or unfold the section under the cursor, or expand/fold its row.
  mutating func activate() -> [ScreenEffect] {
    switch cursor {
    case .header(let id): return setSection(id, open: !isOpen(id))
    case .row(let index):
      setRow(index, open: !expandedRows.contains(index))
      return []
    case nil: return []
    }
  }

  /// Right (`open`) / Left: on a header its section; on a row its details, and Left on a folded
  /// row goes up to the section's header.
  mutating func open(_ open: Bool) -> [ScreenEffect] {
    switch cursor {
    case .header(let id): return setSection(id, open: open)
    case .row(let index):
      if open || expandedRows.contains(index) {
        setRow(index, open: open)
      } else {
        cursor = .header(.expenses)
        ensureCursorVisible()
      }
      return []
    case nil: return []
    }
  }

  mutating func setRow(_ index: Int, open: Bool) {
    if open { expandedRows.insert(index) } else { expandedRows.remove(index) }
    rebuildLayout()
    // The whole expanded row on screen when it fits, else its first line at the top.
    if open, let range = layout.range(of: .row(index)), range.upperBound > scroll + bodyHeight {
      scroll = min(range.lowerBound, range.upperBound - bodyHeight)
    }
    ensureCursorVisible()
  }

  /// Folds or unfolds a section, saving the states; an opened section scrolls to the top of
  /// the screen and, in accordion mode, closes the others.
  mutating func setSection(_ id: SectionID, open: Bool) -> [ScreenEffect] {
    guard id.isCollapsible(windowSize) else {
      message = "\(id.title) is always shown at this width"
      return []
    }
    guard isOpen(id) != open else { return [] }
    var states = preferences
    states.set(id, open)
    if open && accordion { states = states.keepingOneOpen(opened: id, windowSize: windowSize).states }
    return apply(states, opened: open ? id : nil)
  }

  /// `e`: every section open (accordion mode: the cursor's section only, as the mode says).
  mutating func expandAll() -> [ScreenEffect] {
    if accordion {
      message = "accordion mode: one section at a time (a turns it off)"
      return setSection(cursor?.section ?? .categoryPerformance, open: true)
    }
    var states = preferences
    for id in SectionID.allCases where id.isCollapsible(windowSize) { states.set(id, true) }
    return apply(states, opened: nil)
  }

  /// `c`: every collapsible section folded.
  mutating func collapseAll() -> [ScreenEffect] {
    var states = preferences
    for id in SectionID.allCases where id.isCollapsible(windowSize) { states.set(id, false) }
    return apply(states, opened: nil)
  }

  /// `a`: accordion mode on or off; turning it on leaves one section open by the rule every
  /// front end follows (`SectionStates.keepingOneOpen`, nothing just opened), as
  /// `expenses sections accordion on` does.
  mutating func toggleAccordion() -> [ScreenEffect] {
    accordion.toggle()
    message = accordion ? "accordion on: one section open at a time" : "accordion off"
    guard accordion else { return [.saveAccordion(false)] }
    let (states, kept) = preferences.keepingOneOpen(opened: nil, windowSize: windowSize)
    guard let kept else { return [.saveAccordion(true)] }
    return [.saveAccordion(true)] + apply(states, opened: isOpen(kept) ? nil : kept)
  }

  /// Takes new section states: lays out, keeps the cursor on something shown, scrolls an opened
  /// section to the top (starting its reveal), and asks for the states to be saved.
  mutating func apply(_ states: SectionStates, opened: SectionID?) -> [ScreenEffect] {
    let offset = cursorOffset
    let changed = states != preferences
    preferences = states
    if case .row = cursor, !isOpen(.expenses) { cursor = .header(.expenses) }
    if let opened {
      cursor = .header(opened)
      if animates && !isTooSmall { reveal = (opened, 0) }
      rebuildLayout()
      scroll = layout.range(of: .header(opened))?.lowerBound ?? scroll
      clampScroll()
    } else {
      rebuildLayout()
      anchor(offset)
      fillScreen()
    }
    return changed ? [.saveSections(preferences)] : []
  }

  /// After a fold the content may end above the bottom of the screen (folding the last
  /// section left its header alone at the top, over an empty screen): scroll back so the
  /// screen is full again, the cursor's line still on it.
  mutating func fillScreen() {
    scroll = max(0, min(scroll, layout.total - bodyHeight))
    ensureCursorVisible()
  }

  // MARK: Filter

  mutating func handleFilter(_ key: Key, previous: String) -> [ScreenEffect] {
    var text = filter
    switch key {
    case .tab:
      searchAllMonths.toggle()
      return []
    case .enter:
      mode = .browse
      if searchAllMonths && !text.isEmpty {
        // The month's rows unfiltered behind the search; the search's rows come from the driver.
        _ = setFilter("")
        return [.search(text)]
      }
      return []
    case .escape, .interrupt:
      mode = .browse
      text = previous
    case .backspace:
      if !text.isEmpty { text.removeLast() }
    case .character(let character):
      text.append(character)
    default:
      return []
    }
    return setFilter(text)
  }

  /// Filters the expense rows as the filter is typed; a filter opens the expenses section, and
  /// its header goes to the top of the screen so the matches show.
  mutating func setFilter(_ text: String) -> [ScreenEffect] {
    guard text != filter else { return [] }
    filter = text
    content?.applyFilter(text)
    var effects: [ScreenEffect] = []
    if !text.isEmpty && !isOpen(.expenses) {
      let wasAnimating = animates
      animates = false
      effects = setSection(.expenses, open: true)
      animates = wasAnimating
    } else {
      rebuildLayout()
    }
    if isOpen(.expenses), let header = layout.range(of: .header(.expenses)) {
      if case .row = cursor {} else { cursor = .header(.expenses) }
      scroll = header.lowerBound
      clampScroll()
      ensureCursorVisible()
    }
    return effects
  }

  // MARK: Mouse

  /// A left click on a header or row moves the cursor there and toggles it; the wheel scrolls.
  mutating func mouse(_ event: MouseEvent) -> [ScreenEffect] {
    switch event.action {
    case .press(button: 0):
      guard event.row >= 1, event.row <= bodyHeight else { return [] }
      let line = scroll + event.row - 1
      guard line < layout.total, let item = layout.blocks[layout.block(at: line)].item else { return [] }
      cursor = item
      return activate()
    case .wheelUp, .wheelDown:
      scroll += event.action == .wheelUp ? -3 : 3
      scroll = max(0, min(scroll, max(0, layout.total - bodyHeight)))
      if let cursor, let range = layout.range(of: cursor) {
        if range.lowerBound < scroll {
          self.cursor = layout.item(atOrAfter: scroll)
        } else if range.lowerBound >= scroll + bodyHeight {
          self.cursor = layout.item(atOrBefore: scroll + bodyHeight - 1)
        }
      }
      return []
    default:
      return []
    }
  }
}

extension SectionStates {
  /// `self` with `id` expanded or not.
  mutating func set(_ id: SectionID, _ expanded: Bool) {
    var all: [SectionID: Bool] = [:]
    for other in SectionID.allCases { all[other] = isExpanded(other) }
    all[id] = expanded
    self = SectionStates(expanded: all)
  }
}
