import ExpenseCore
import Foundation
import Testing

@testable import ExpenseRender

/// Golden files `Fixtures/reports/NAME[.VARIANT].WIDTH.txt`, compared byte for byte.
/// `RECORD_GOLDENS=1 swift test --scratch-path .build-render --filter ExpenseRenderTests` rewrites them.
struct GoldenCase: Sendable, CustomTestStringConvertible {
  var name: String
  var variant: String?
  var width: Int
  var options: RenderOptions

  var fileName: String { [name, variant, String(width), "txt"].compactMap { $0 }.joined(separator: ".") }
  var testDescription: String { fileName }

  static let widths = [20, 40, 59, 60, 80, 99, 100, 132, 200]

  static var all: [GoldenCase] {
    var cases: [GoldenCase] = []
    for (name, _) in Fixtures.all {
      for width in widths { cases.append(GoldenCase(name: name, width: width, options: RenderOptions(width: width))) }
    }
    let expandedAll = try! SectionStates.resolve(
      saved: [:], expand: ["all"], collapse: [], accordion: false, windowSize: .compact)
    for width in [20, 40, 80, 132] {
      cases.append(
        GoldenCase(name: "demo", variant: "ascii", width: width, options: RenderOptions(width: width, glyphs: .ascii)))
      cases.append(
        GoldenCase(name: "demo", variant: "plain", width: width, options: RenderOptions(width: width, plain: true)))
      cases.append(
        GoldenCase(
          name: "demo", variant: "expanded", width: width,
          options: RenderOptions(width: width, details: true, sections: expandedAll)))
      cases.append(
        GoldenCase(
          name: "many", variant: "expanded", width: width, options: RenderOptions(width: width, sections: expandedAll)))
    }
    for width in [40, 100] {
      cases.append(
        GoldenCase(
          name: "demo", variant: "plain-expanded", width: width,
          options: RenderOptions(width: width, plain: true, sections: expandedAll)))
      cases.append(
        GoldenCase(
          name: "two-currencies", variant: "expanded", width: width,
          options: RenderOptions(width: width, details: true, sections: expandedAll)))
    }
    let collapsed = try! SectionStates.resolve(
      saved: [:], expand: [], collapse: ["all"], accordion: false, windowSize: .compact)
    cases.append(
      GoldenCase(name: "demo", variant: "collapsed", width: 40, options: RenderOptions(width: 40, sections: collapsed)))
    return cases
  }
}

let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("../../Fixtures/reports").standardized

func report(named name: String) -> BudgetReport { Fixtures.all.first { $0.0 == name }!.1 }

/// Line-by-line differences, for a failure message a person can read.
func readableDiff(expected: String, actual: String) -> String {
  let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
  var out: [String] = []
  for index in 0..<max(e.count, a.count) {
    let left = index < e.count ? String(e[index]) : nil
    let right = index < a.count ? String(a[index]) : nil
    if left != right {
      out.append(String(format: "%4d - %@", index + 1, left ?? "<none>"))
      out.append(String(format: "%4d + %@", index + 1, right ?? "<none>"))
    }
    if out.count > 40 { break }
  }
  return out.joined(separator: "\n")
}

@Suite("Golden reports")
struct GoldenTests {
  @Test(arguments: GoldenCase.all)
  func matchesGolden(_ golden: GoldenCase) throws {
    let text = TextRenderer(options: golden.options).render(report(named: golden.name))
    let url = goldenDirectory.appendingPathComponent(golden.fileName)
    if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
      try FileManager.default.createDirectory(at: goldenDirectory, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
      return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(
      text == expected,
      "\(golden.fileName) differs (RECORD_GOLDENS=1 re-records):\n\(readableDiff(expected: expected, actual: text))")
    for line in text.split(separator: "\n") {
      #expect(DisplayWidth.of(String(line)) <= golden.width, "too wide: \(line)")
    }
  }
}
