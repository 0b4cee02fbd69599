import ExpenseRender
import ExpenseStore

/// The saved expand/collapse state of the report's sections and accordion mode: each user's
/// own display preference, shared by every front end that user works in, kept in the ledger.
///
/// How a user's states are kept: `local`'s (the terminal's, and every token made without
/// `--user`) under the bare section ids and the setting `accordion`, as before there were
/// users; another user's under `USER/SECTION` and `accordion/USER`. User names cannot hold a
/// `/` (`DirectoryName`), so no two users' keys meet, and a ledger copied to another store
/// carries everyone's preferences with it.
public struct SectionService {
  public var store: any LedgerStore
  /// Whose preferences these are.
  public var user: String

  public init(store: any LedgerStore, user: String = DirectoryName.localUser) {
    self.store = store
    self.user = user
  }

  /// The stored key of section `id` for this user.
  func key(_ id: String) -> String { user == DirectoryName.localUser ? id : "\(user)/\(id)" }

  /// The section id a stored key holds for this user; nil for another user's key.
  func section(ofKey key: String) -> String? {
    if user == DirectoryName.localUser { return key.contains("/") ? nil : key }
    let prefix = user + "/"
    return key.hasPrefix(prefix) ? String(key.dropFirst(prefix.count)) : nil
  }

  /// This user's saved states by section id, as stored (ids this version does not know too).
  func stored() throws -> [String: Bool] {
    var states: [String: Bool] = [:]
    for (key, value) in try store.sectionStates() { if let id = section(ofKey: key) { states[id] = value } }
    return states
  }

  var accordionKey: String { user == DirectoryName.localUser ? "accordion" : "accordion/\(user)" }

  /// One section as `sections list` and `GET /v1/sections` show it.
  public struct Entry: Sendable, Equatable, Encodable {
    public var id: String
    public var title: String
    /// Its state in a report that has no flags (as saved; the default when not saved).
    public var expanded: Bool
    /// Whether the state was saved (false: the section's default).
    public var saved: Bool
    /// Where it can be collapsed: never, compact (only in compact width) or always.
    public var collapsibleIn: Collapsibility
  }

  /// Saved states by section id; ids this version does not know are ignored.
  public func saved() throws -> [SectionID: Bool] {
    var saved: [SectionID: Bool] = [:]
    for (key, value) in try stored() { if let id = SectionID(rawValue: key) { saved[id] = value } }
    return saved
  }

  /// Whether accordion mode is on (at most one collapsible section open).
  public func accordion() throws -> Bool { try store.setting(accordionKey) == "on" }

  /// The states a report renders with: saved states, then this request's flags, then
  /// accordion mode, then what `windowSize` never folds.
  public func resolve(expand: [String] = [], collapse: [String] = [], windowSize: WindowSize = .compact) throws
    -> SectionStates
  {
    try SectionStates.resolve(
      saved: try saved(), expand: expand, collapse: collapse, accordion: try accordion(), windowSize: windowSize)
  }

  /// Applies a change through the same resolution the report uses (so accordion mode and id
  /// validation behave identically) and saves the state of every collapsible section.
  @discardableResult
  public func change(expand: [String], collapse: [String]) throws -> SectionStates {
    let states = try resolve(expand: expand, collapse: collapse)
    try save(states)
    return states
  }

  /// Saves the state of every collapsible section as given (a front end that resolved them
  /// itself: the interactive report, which applies accordion mode as it folds).
  public func save(_ states: SectionStates) throws {
    var toSave: [String: Bool] = [:]
    for id in SectionID.allCases where id.collapsibility != .never { toSave[key(id.rawValue)] = states.isExpanded(id) }
    try store.saveSectionStates(toSave)
  }

  /// Stores accordion mode without folding anything (the caller saves the states it folded).
  public func storeAccordion(_ on: Bool) throws { try store.setSetting(accordionKey, on ? "on" : "off") }

  /// Turns accordion mode on or off; turning it on folds all but one open section at once.
  public func setAccordion(_ on: Bool) throws {
    try storeAccordion(on)
    if on { try change(expand: [], collapse: []) }
  }

  /// Forgets every saved state: back to the defaults.
  public func reset() throws { try store.removeSectionStates(try stored().keys.map(key)) }

  /// Every section with its state, in print order.
  public func entries() throws -> [Entry] {
    let saved = try stored()
    let states = try resolve()
    return SectionID.allCases.map {
      Entry(
        id: $0.rawValue, title: $0.title, expanded: states.isExpanded($0), saved: saved[$0.rawValue] != nil,
        collapsibleIn: $0.collapsibility)
    }
  }
}
