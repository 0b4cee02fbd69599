import Testing

@testable import ExpenseInteractive

@Suite("Key decoder")
struct KeyDecoderTests {
  func decode(_ text: String) -> [Key] {
    var decoder = KeyDecoder()
    return decoder.feed(Array(text.utf8))
  }

  @Test func arrowsHomeEndAndPagesInBothEncodings() {
    #expect(decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
    #expect(decode("\u{1B}OA\u{1B}OB\u{1B}OH\u{1B}OF") == [.up, .down, .home, .end])
    #expect(decode("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~") == [.home, .end, .home, .end, .home, .end])
    #expect(decode("\u{1B}[5~\u{1B}[6~") == [.pageUp, .pageDown])
    #expect(decode("\u{1B}[1;5A") == [.up], "a modifier parameter still reads as the arrow")
  }

  @Test func plainKeysAndControls() {
    #expect(decode("jk /q") == [.character("j"), .character("k"), .character(" "), .character("/"), .character("q")])
    #expect(
      decode("\r\n\u{7F}\u{08}\t\u{03}\u{0C}") == [.enter, .enter, .backspace, .backspace, .tab, .interrupt, .redraw])
    #expect(decode("\u{01}\u{1A}") == [], "other control bytes are no keys")
  }

  @Test func aSequenceSplitAcrossReadsWaitsForItsEnd() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(Array("\u{1B}[".utf8)) == [])
    #expect(decoder.hasPending)
    #expect(decoder.feed(Array("5".utf8)) == [])
    #expect(decoder.feed(Array("~j".utf8)) == [.pageUp, .character("j")])
    #expect(!decoder.hasPending)
  }

  @Test func aLoneEscapeIsEscapeOnlyAfterThePause() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B]) == [])
    #expect(decoder.flush() == [.escape])
    #expect(decoder.feed([0x1B, 0x1B]) == [.escape], "ESC ESC: the first is a key, the second waits")
    #expect(decoder.flush() == [.escape])
  }

  @Test func aCutSequenceIsDroppedNotReadAsKeys() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(Array("\u{1B}[1;".utf8)) == [])
    #expect(decoder.flush() == [], "its '[' must not become the previous-month key")
    #expect(decoder.feed(Array("k".utf8)) == [.character("k")])
  }

  @Test func sgrMouseReports() {
    #expect(decode("\u{1B}[<0;12;5M") == [.mouse(MouseEvent(action: .press(button: 0), column: 12, row: 5))])
    #expect(decode("\u{1B}[<0;12;5m") == [.mouse(MouseEvent(action: .release, column: 12, row: 5))])
    #expect(
      decode("\u{1B}[<64;1;2M\u{1B}[<65;1;2M") == [
        .mouse(MouseEvent(action: .wheelUp, column: 1, row: 2)),
        .mouse(MouseEvent(action: .wheelDown, column: 1, row: 2)),
      ])
    #expect(decode("\u{1B}[<32;3;3M") == [], "drag motion is ignored")
    #expect(decode("\u{1B}[<2;7;9M") == [.mouse(MouseEvent(action: .press(button: 2), column: 7, row: 9))])
  }

  @Test func utf8CharactersEvenWhenSplitAndNeverC1Controls() {
    var decoder = KeyDecoder()
    let bytes = Array("é麺".utf8)
    #expect(decoder.feed(bytes[0..<1]) == [])
    #expect(decoder.feed(bytes[1..<3]) == [.character("é")])
    #expect(decoder.feed(bytes[3...]) == [.character("麺")])
    #expect(decode("\u{9B}x") == [.character("x")], "U+009B (CSI) is not typed text")
    #expect(decode(String(decoding: [0xFF, 0x61], as: UTF8.self)) == [.character("\u{FFFD}"), .character("a")])
    var raw = KeyDecoder()
    #expect(raw.feed([0xFF, 0x80, 0x61]) == [.character("a")], "invalid bytes are skipped")
  }
}
