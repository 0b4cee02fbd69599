import ExpenseRender

/// The screen's lines in order, as blocks: a piece of text, a section header or an expense
/// row (with its details when expanded). Only blocks are arranged here; their text is fetched
/// for the lines on screen alone, so a frame costs the same for 10 rows or 10,000.
struct ScreenLayout {
  enum Source {
    case text([String])
    /// An expense row, by its index in the report's `expenses`.
    case row(Int)
  }

  struct Block {
    var item: ScreenItem?
    var source: Source
    var count: Int
  }

  private(set) var blocks: [Block] = []
  /// The first line of each block.
  private(set) var starts: [Int] = []
  private(set) var total = 0
  /// The items the cursor can rest on, in screen order.
  private(set) var items: [ScreenItem] = []
  /// The block of each item.
  private(set) var itemBlocks: [Int] = []
  /// Where each header and each row (by expense index; -1: not shown) is in `items`: arrays,
  /// not a dictionary, as hashing 10,000 items made every row expansion cost milliseconds.
  private var headerItems: [SectionID: Int] = [:]
  private var rowItems: [Int32] = []

  init() {}

  /// The position of `item` in `items`, when it is on the screen's list.
  func index(of item: ScreenItem) -> Int? {
    switch item {
    case .header(let id): return headerItems[id]
    case .row(let index):
      guard rowItems.indices.contains(index), rowItems[index] >= 0 else { return nil }
      return Int(rowItems[index])
    }
  }

  /// Arranges `content`: open sections show their bodies (the revealing one only its first
  /// `reveal.lines` lines), expanded rows `rowCount` lines.
  init(
    content: ScreenContent, rowCapacity: Int, isOpen: (SectionID) -> Bool, rowCount: (Int) -> Int,
    reveal: (section: SectionID, lines: Int)?
  ) {
    rowItems = [Int32](repeating: -1, count: rowCapacity)
    add(.text(content.title), item: nil)
    if content.isEmpty { return }
    add(.text(content.summary), item: nil)
    var afterClosedHeader = false
    for id in ScreenContent.folded {
      guard let header = content.headers[id] else { continue }
      let open = isOpen(id)
      if !afterClosedHeader { add(.text([""]), item: nil) }
      add(.text([open ? header.open : header.closed]), item: .header(id))
      afterClosedHeader = !open
      guard open else { continue }
      var budget = reveal?.section == id ? reveal!.lines : Int.max
      let body = Array((content.bodies[id] ?? []).prefix(budget))
      add(.text(body), item: nil)
      budget -= body.count
      if id == .expenses {
        blocks.reserveCapacity(blocks.count + content.rowIndices.count + 4)
        starts.reserveCapacity(blocks.count + content.rowIndices.count + 4)
        items.reserveCapacity(items.count + content.rowIndices.count + 2)
        itemBlocks.reserveCapacity(items.count + content.rowIndices.count + 2)
        for index in content.rowIndices where budget > 0 {
          let count = rowCount(index)
          add(.row(index), item: .row(index), count: count)
          budget -= count
        }
      }
    }
  }

  private mutating func add(_ source: Source, item: ScreenItem?, count: Int? = nil) {
    let lines: Int
    if let count {
      lines = count
    } else if case .text(let text) = source {
      lines = text.count
    } else {
      lines = 1
    }
    guard lines > 0 else { return }
    if let item {
      switch item {
      case .header(let id): headerItems[id] = items.count
      case .row(let index): rowItems[index] = Int32(items.count)
      }
      items.append(item)
      itemBlocks.append(blocks.count)
    }
    starts.append(total)
    blocks.append(Block(item: item, source: source, count: lines))
    total += lines
  }

  /// The block holding `line` (the last block for a line past the end).
  func block(at line: Int) -> Int {
    var low = 0
    var high = blocks.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if starts[mid] <= line { low = mid } else { high = mid - 1 }
    }
    return low
  }

  /// First line and line count of `item`.
  func range(of item: ScreenItem) -> Range<Int>? {
    guard let index = index(of: item) else { return nil }
    let block = itemBlocks[index]
    return starts[block]..<(starts[block] + blocks[block].count)
  }

  /// The first item starting at or after `line`, else the last item.
  func item(atOrAfter line: Int) -> ScreenItem? {
    guard !items.isEmpty else { return nil }
    var low = 0
    var high = items.count - 1
    while low < high {
      let mid = (low + high) / 2
      if starts[itemBlocks[mid]] >= line { high = mid } else { low = mid + 1 }
    }
    return items[low]
  }

  /// The last item starting at or before `line`, else the first item.
  func item(atOrBefore line: Int) -> ScreenItem? {
    guard !items.isEmpty else { return nil }
    var low = 0
    var high = items.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if starts[itemBlocks[mid]] <= line { low = mid } else { high = mid - 1 }
    }
    return items[low]
  }
}
