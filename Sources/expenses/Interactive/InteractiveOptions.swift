import ArgumentParser

/// Options of the full-screen report only (`report --interactive`, `browse`).
struct InteractiveOptions: ParsableArguments {
  @Flag(help: "Open sections at once, without the short reveal.")
  var noAnimation = false
}
