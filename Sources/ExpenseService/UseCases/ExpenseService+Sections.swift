import ExpenseRender
import ExpenseStore

extension ExpenseService {
  /// Every section with its state, in print order (`sections list`, `GET /v1/sections`).
  public func sectionEntries() throws -> [SectionService.Entry] {
    try SectionService(store: store, user: user).entries()
  }

  /// The saved states and accordion mode.
  public func savedSections() throws -> SavedSections {
    let sections = SectionService(store: store, user: user)
    return SavedSections(expanded: try sections.saved(), accordion: try sections.accordion())
  }

  /// The saved states with one-off `expand`/`collapse` applied, resolved for `windowSize`.
  public func resolveSections(expand: [String] = [], collapse: [String] = [], windowSize: WindowSize = .compact)
    throws -> SectionStates
  {
    try SectionService(store: store, user: user).resolve(expand: expand, collapse: collapse, windowSize: windowSize)
  }

  /// Expands and collapses sections (ids or "all") and saves the result, accordion applied.
  @discardableResult
  public func changeSections(expand: [String], collapse: [String]) throws -> SectionStates {
    try SectionService(store: store, user: user).change(expand: expand, collapse: collapse)
  }

  /// Turns accordion mode on (folding all but one open section) or off.
  public func setAccordion(_ on: Bool) throws { try SectionService(store: store, user: user).setAccordion(on) }

  /// Forgets every saved state.
  public func resetSections() throws { try SectionService(store: store, user: user).reset() }

  /// Saves states a front end resolved itself (the interactive report folds as it goes).
  public func saveSections(_ states: SectionStates) throws { try SectionService(store: store, user: user).save(states) }

  /// Stores accordion mode without folding (the interactive report saves what it folded next).
  public func storeAccordion(_ on: Bool) throws { try SectionService(store: store, user: user).storeAccordion(on) }

  /// Applies `change` when `precondition` accepts the current states (the API's If-Match, which
  /// throws its own answer), and returns the states after it. The check, the change and the
  /// states returned are one transaction of the store (`LedgerStore.atomically`), so two
  /// servers on one database racing with the same ETag cannot both pass the check.
  public func updateSections(_ change: SectionChange, precondition: (SavedSections) throws -> Void) throws
    -> SavedSections
  {
    try store.atomically {
      try precondition(try savedSections())
      switch change {
      case .accordion(let on): try setAccordion(on)
      case .section(let id, let expanded):
        try changeSections(expand: expanded ? [id.rawValue] : [], collapse: expanded ? [] : [id.rawValue])
      }
      return try savedSections()
    }
  }
}

/// Section preferences as saved: what a report uses unless told otherwise.
public struct SavedSections: Sendable, Equatable {
  public var expanded: [SectionID: Bool]
  public var accordion: Bool

  public init(expanded: [SectionID: Bool], accordion: Bool) {
    self.expanded = expanded
    self.accordion = accordion
  }

  /// As a report resolves it with no flags (defaults for what was never saved).
  public func isExpanded(_ id: SectionID) -> Bool {
    (try? SectionStates.resolve(saved: expanded, expand: [], collapse: [], accordion: accordion, windowSize: .compact))?
      .isExpanded(id) ?? id.defaultExpanded
  }
}

/// A change to the saved sections.
public enum SectionChange: Sendable {
  case section(SectionID, expanded: Bool)
  case accordion(Bool)
}
