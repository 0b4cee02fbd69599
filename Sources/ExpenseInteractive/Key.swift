/// One keystroke or mouse event, decoded from the bytes a terminal sends.
public enum Key: Equatable, Sendable {
  case up, down, left, right
  case pageUp, pageDown, home, end
  case enter, tab, backspace, escape
  /// Ctrl-C (raw mode turns it into a byte instead of a signal).
  case interrupt
  /// Ctrl-L: draw the whole screen again.
  case redraw
  /// A printable character (space included).
  case character(Character)
  /// A click or a wheel step (SGR 1006 mouse reporting).
  case mouse(MouseEvent)
}

/// A mouse event at a 1-based screen cell.
public struct MouseEvent: Equatable, Sendable {
  /// What happened.
  public enum Action: Equatable, Sendable {
    /// A button went down (0 left, 1 middle, 2 right).
    case press(button: Int)
    /// A button went up.
    case release
    case wheelUp, wheelDown
  }

  public var action: Action
  /// 1-based column.
  public var column: Int
  /// 1-based row (line 1 is the top of the screen).
  public var row: Int

  public init(action: Action, column: Int, row: Int) {
    self.action = action
    self.column = column
    self.row = row
  }
}
