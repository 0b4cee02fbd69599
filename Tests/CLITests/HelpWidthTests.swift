import Foundation
import TestSupport
import Testing

/// `--help` and `help` fit the terminal like every other output, at every width from 20 (COLUMNS), checked by the independent width oracle.
/// Before, `import --help` at 40 columns had a 67-cell line (a path ArgumentParser keeps
/// whole), and at 20 columns ArgumentParser trapped.
@Suite struct HelpWidthTests {
  @Test(arguments: [20, 27, 40, 59, 80, 132])
  func helpFitsEveryWidth(_ width: Int) throws {
    let cli = try CLI()
    for command in [
      ["--help"], ["import", "--help"], ["help", "import"], ["report", "--help"], ["rules", "add", "--help"],
      ["serve", "--help"],
    ] {
      let result = try cli.run(command, useDatabase: false, environment: ["COLUMNS": String(width)])
      #expect(result.code == 0, "\(command) at \(width): exit \(result.code)")
      let text = result.stdout + result.stderr
      #expect(text.count > 20, "\(command) printed its help or usage")
      let (fits, report) = try WidthChecker.check(text, width: width)
      #expect(fits, "\(command) at \(width): \(report)")
    }
  }
}
