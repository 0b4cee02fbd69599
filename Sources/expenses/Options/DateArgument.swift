import ArgumentParser
import ExpenseCore

/// The one reader of months and dates typed on the command line (`--month`, `--today`,
/// `--date`, `add DATE`, `--from`/`--to`): `Month.parse` and `CivilDate.parse` with their one
/// message (which states the supported range), as a usage error (exit 64).
enum DateArgument {
  static func month(_ text: String) throws -> Month {
    do { return try Month.parse(text) } catch { throw ValidationError(error.description) }
  }

  static func date(_ text: String) throws -> CivilDate {
    do { return try CivilDate.parse(text) } catch { throw ValidationError(error.description) }
  }

  /// A month naming something already stored: any four-digit year, so that what an older
  /// version stored outside the supported range (`budget remove --month 0999-05`) can be named.
  static func storedMonth(_ text: String) throws -> Month {
    do { return try Month.parseStored(text) } catch { throw ValidationError(error.description) }
  }
}
