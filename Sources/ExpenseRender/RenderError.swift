import Foundation

/// Errors of the render layer.
public enum RenderError: Error, Equatable, Sendable {
  /// `--expand`/`--collapse` named a section that does not exist; `valid` lists the ids accepted.
  case unknownSection(String, valid: [String])
}

extension RenderError: CustomStringConvertible, LocalizedError {
  public var description: String {
    switch self {
    case .unknownSection(let id, let valid):
      return "unknown section '\(TerminalText.sanitize(id))': valid sections are \(valid.joined(separator: ", "))"
    }
  }

  public var errorDescription: String? { description }
}
