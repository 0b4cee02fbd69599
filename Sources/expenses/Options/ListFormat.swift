import ArgumentParser

/// Output formats of `list`: the import commands' `SummaryFormat` plus CSV.
enum ListFormat: String, CaseIterable, ExpressibleByArgument {
  case text, json, csv
}
