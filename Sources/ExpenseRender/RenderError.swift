import ExpenseCore
import Foundation

/// Errors of the render layer.
public enum RenderError: Error, Equatable, Sendable {
  /// `--expand`/`--collapse` named a section that does not exist; `valid` lists the ids accepted.
  case unknownSection(String, valid: [String])
  /// `--collapse`/`sections collapse` named a section that is never collapsible (the summary).
  case notCollapsible(SectionID)
}

extension RenderError: CustomStringConvertible, LocalizedError {
  public var description: String {
    switch self {
    case .unknownSection(let id, let valid):
      return "unknown section '\(TerminalText.sanitize(id))': valid sections are \(valid.joined(separator: ", "))"
    case .notCollapsible(let id):
      return "the \(id.rawValue) section cannot be collapsed: it is always shown"
    }
  }

  public var errorDescription: String? { description }
}

extension RenderError: ClassifiedError {
  /// A section id that does not exist or cannot collapse: the request is wrong.
  public var kind: ErrorKind { .usage }
}
