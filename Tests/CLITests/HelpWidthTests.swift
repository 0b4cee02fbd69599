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

  /// The commands `--help` lists, and the subcommands each of those lists: every one.
  static func everyCommand(_ cli: CLI) throws -> [[String]] {
    func listed(_ command: [String]) throws -> [String] {
      let help = try cli.run(command + ["--help"], useDatabase: false, environment: ["COLUMNS": "200"]).stdout
      guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
      return help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
        .prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }
    var commands: [[String]] = [[]]
    for top in try listed([]) {
      commands.append([top])
      for sub in try listed([top]) { commands.append([top, sub]) }
    }
    return commands
  }

  /// Every command's and subcommand's `--help`, at the widths where layouts change.
  @Test func everyCommandsHelpFits() throws {
    let cli = try CLI()
    let commands = try Self.everyCommand(cli)
    #expect(commands.count > 40, "\(commands)")
    for width in [20, 21, 26, 27, 40, 60, 80, 120, 200] {
      var text = ""
      for command in commands {
        let result = try cli.run(command + ["--help"], useDatabase: false, environment: ["COLUMNS": String(width)])
        #expect(result.code == 0, "\(command) at \(width): exit \(result.code)")
        text += result.stdout + result.stderr
      }
      let (fits, report) = try WidthChecker.check(text, width: width)
      #expect(fits, "every --help at \(width): \(report)")
    }
  }
}
