// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "expenses",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "expenses", targets: ["expenses"])
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
  ],
  targets: [
    .target(name: "ExpenseCore"),
    // Shared by the test targets only (the seeded generator of every randomized test).
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .target(name: "ExpenseImport", dependencies: ["ExpenseCore"]),
    .target(
      name: "ExpenseStore",
      dependencies: [
        "ExpenseCore", .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    .target(name: "ExpenseRender", dependencies: ["ExpenseCore"]),
    // What every front end calls: import orchestration, report loading, saved sections.
    .target(name: "ExpenseService", dependencies: ["ExpenseCore", "ExpenseImport", "ExpenseStore", "ExpenseRender"]),
    // The interactive report's screen as a pure state machine: no terminal, database or clock.
    .target(name: "ExpenseInteractive", dependencies: ["ExpenseCore", "ExpenseRender"]),
    // Swift 5 mode only to read stdio's C globals; see the file's comment.
    .target(name: "ConsoleStreams", swiftSettings: [.swiftLanguageMode(.v5)]),
    .executableTarget(
      name: "expenses",
      dependencies: [
        "ExpenseCore", "ExpenseImport", "ExpenseStore", "ExpenseRender", "ExpenseService", "ExpenseInteractive",
        "ConsoleStreams",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "ExpenseCoreTests",
      dependencies: ["TestSupport", "ExpenseCore", .product(name: "PropertyBased", package: "swift-property-based")]
    ),
    .testTarget(
      name: "ExpenseImportTests",
      dependencies: [
        "TestSupport",
        "ExpenseCore", "ExpenseImport", .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "ExpenseStoreTests",
      dependencies: ["TestSupport", "ExpenseCore", "ExpenseStore", .product(name: "GRDBSQLite", package: "GRDB.swift")]
    ),
    .testTarget(
      name: "ExpenseRenderTests",
      dependencies: [
        "TestSupport",
        "ExpenseCore", "ExpenseRender", .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "ExpenseServiceTests",
      dependencies: ["TestSupport", "ExpenseCore", "ExpenseImport", "ExpenseStore", "ExpenseRender", "ExpenseService"]
    ),
    .testTarget(
      name: "ExpenseInteractiveTests", dependencies: ["TestSupport", "ExpenseCore", "ExpenseRender", "ExpenseInteractive"]
    ),
    // The interactive screen's frame time on 10,000 rows (see README, Interactive report).
    .executableTarget(
      name: "screen-benchmark", dependencies: ["ExpenseCore", "ExpenseRender", "ExpenseInteractive"],
      path: "Benchmarks/ScreenBenchmark"),
    .testTarget(
      name: "CLITests", dependencies: ["TestSupport", "expenses", .product(name: "GRDBSQLite", package: "GRDB.swift")]),
  ]
)
