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
    // The HTTP server (`expenses serve`): see docs/http-api.md.
    .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", exact: "2.1.0"),
    .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
    // Only its command-line tool, to regenerate the committed server code (.ci/run checks it).
    .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
    .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
    .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
    .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
    // The PostgreSQL store (ExpensePostgres): the wire protocol only, no ORM; see docs/storage.md.
    .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
  ],
  targets: [
    .target(name: "ExpenseCore"),
    // The one write-until-done loop over a raw descriptor, for every module that writes files;
    // not in ExpenseCore, which does no I/O.
    .target(name: "SystemIO"),
    // Shared by the test targets only (the seeded generator of every randomized test).
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    // The service opened as the executable opens it (through `Stores`), for the service,
    // server and store tests.
    .target(
      name: "ServiceTestSupport", dependencies: ["ExpenseStore", "ExpenseStores", "ExpenseService"],
      path: "Tests/ServiceTestSupport"),
    // Debian's libuchardet names the encoding of an import that is not UTF-8; it is loaded at run
    // time (Text/Uchardet.swift), so building needs nothing beyond the toolchain and SQLite.
    .target(name: "ExpenseImport", dependencies: ["ExpenseCore"]),
    // The store's protocol (`LedgerStore`) and the types it speaks: no engine, so each store
    // and the service depend on it alone.
    .target(name: "ExpenseStore", dependencies: ["ExpenseCore", "SystemIO"]),
    // The SQLite conformance of LedgerStore (GRDB over the system's libsqlite3): a file.
    .target(
      name: "ExpenseSQLite",
      dependencies: [
        "ExpenseCore", "ExpenseStore", "SystemIO", .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    // The PostgreSQL conformance of LedgerStore, beside the SQLite one: a server, not a file.
    .target(
      name: "ExpensePostgres",
      dependencies: ["ExpenseCore", "ExpenseStore", .product(name: "PostgresNIO", package: "postgres-nio")]
    ),
    // The third store: everything in this process's memory, for tests that need no disk (and
    // the proof that a store costs storage, not policy). Only test targets link it.
    .target(name: "ExpenseMemory", dependencies: ["ExpenseCore", "ExpenseStore"]),
    // The composition root's factory (`Stores`): which store a location names, opened for the
    // service. Only the executable and the tests link it; the service names no concrete store.
    .target(name: "ExpenseStores", dependencies: ["ExpenseCore", "ExpenseStore", "ExpenseSQLite", "ExpensePostgres"]),
    .target(name: "ExpenseRender", dependencies: ["ExpenseCore"]),
    // What every front end calls: import orchestration, report loading, saved sections.
    .target(
      name: "ExpenseService",
      dependencies: [
        "ExpenseCore", "ExpenseImport", "ExpenseStore", "ExpenseRender", "SystemIO",
        // Token hashes (`TokenHasher`): the server's own dependency already, so no new build.
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),
    // The interactive report's screen as a pure state machine: no terminal, database or clock.
    .target(name: "ExpenseInteractive", dependencies: ["ExpenseCore", "ExpenseRender"]),
    .target(
      name: "ExpenseServer",
      dependencies: [
        "ExpenseCore", "ExpenseImport", "ExpenseStore", "ExpenseRender", "ExpenseService", "SystemIO",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
        .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      exclude: ["openapi.yaml", "openapi-generator-config.yaml"]
    ),
    // Swift 5 mode only to read stdio's C globals; see the file's comment.
    .target(name: "ConsoleStreams", swiftSettings: [.swiftLanguageMode(.v5)]),
    .executableTarget(
      name: "expenses",
      dependencies: [
        "ExpenseCore", "ExpenseImport", "ExpenseStore", "ExpenseStores", "ExpenseRender", "ExpenseService",
        "ExpenseInteractive", "ConsoleStreams", "ExpenseServer", "SystemIO",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
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
      dependencies: [
        "TestSupport", "ExpenseCore", "ExpenseStore", "ExpenseSQLite", "SystemIO",
        // The service only for the policy it runs over a store (`rules apply`), as the CLI does.
        "ExpenseService", "ExpenseStores", "ServiceTestSupport", .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    .testTarget(
      name: "ExpensePostgresTests",
      dependencies: ["TestSupport", "ExpenseCore", "ExpenseStore", "ExpensePostgres"]
    ),
    .testTarget(
      name: "ExpenseRenderTests",
      dependencies: [
        "TestSupport",
        // ExpenseImport only for its CSVReader, which reads back what CSVWriter writes.
        "ExpenseCore", "ExpenseRender", "ExpenseImport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "ExpenseServiceTests",
      dependencies: [
        "TestSupport", "ExpenseCore", "ExpenseImport", "ExpenseStore", "ExpenseSQLite", "ExpensePostgres",
        "ExpenseMemory", "ExpenseStores", "ExpenseRender", "ExpenseService", "ServiceTestSupport",
      ]
    ),
    .testTarget(
      name: "ExpenseServerTests",
      dependencies: [
        "TestSupport", "ServiceTestSupport", "ExpenseCore", "ExpenseStore", "ExpenseSQLite", "ExpenseMemory",
        "ExpenseStores", "ExpenseService", "ExpenseServer", .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    .testTarget(
      name: "ExpenseInteractiveTests",
      dependencies: ["TestSupport", "ExpenseCore", "ExpenseRender", "ExpenseInteractive"]
    ),
    // The interactive screen's frame time on 10,000 rows (see docs/interactive.md).
    .executableTarget(
      name: "screen-benchmark", dependencies: ["ExpenseCore", "ExpenseRender", "ExpenseInteractive"],
      path: "Benchmarks/ScreenBenchmark"),
    .testTarget(
      name: "CLITests", dependencies: ["TestSupport", "expenses", .product(name: "GRDBSQLite", package: "GRDB.swift")]),
  ]
)
