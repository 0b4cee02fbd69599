import ExpenseRender

/// One screen of text: exactly `height` lines, none wider than `width` cells.
///
/// The text is what the tests read; `styled` adds the cursor's highlight for the terminal.
public struct Frame: Equatable, Sendable {
  public var lines: [String]
  /// The line drawn in reverse video (the cursor's), if it is on screen.
  public var highlighted: Int?
  /// The line drawn dim when colour is on (the status line).
  public var status: Int?
  public var width: Int

  public init(lines: [String], highlighted: Int? = nil, status: Int? = nil, width: Int) {
    self.lines = lines
    self.highlighted = highlighted
    self.status = status
    self.width = width
  }

  /// The lines as the terminal gets them: the cursor's line in reverse video across the whole
  /// width (an attribute, not a colour, so it shows with `NO_COLOR` too), re-applied after every
  /// reset inside the line; the status line dim when `color`.
  public func styled(color: Bool) -> [String] {
    var out = lines
    if let index = highlighted, out.indices.contains(index) {
      let line = out[index]
      let padding = String(repeating: " ", count: max(0, width - DisplayWidth.of(line)))
      out[index] = "\u{1B}[7m" + line.replacingResets(with: "\u{1B}[0;7m") + padding + "\u{1B}[0m"
    }
    if color, let index = status, out.indices.contains(index), !out[index].isEmpty {
      out[index] = "\u{1B}[2m" + out[index] + "\u{1B}[0m"
    }
    return out
  }
}

extension String {
  /// `self` with every SGR reset `ESC [ 0 m` replaced by `replacement`.
  func replacingResets(with replacement: String) -> String {
    guard contains("\u{1B}") else { return self }
    return split(separator: "\u{1B}[0m", omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
