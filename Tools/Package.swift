// swift-tools-version: 6.2
import class Foundation.ProcessInfo
import PackageDescription

/// Settings every library target shares: a warning in library code fails the build.
let librarySettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "KatanaTools",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "KatanaInspector", targets: ["KatanaInspector"]),
        .executable(name: "katana-inspector", targets: ["katana-inspector"]),
        .library(name: "KatanaLogging", targets: ["KatanaLogging"]),
        .library(name: "KatanaMetrics", targets: ["KatanaMetrics"]),
        .library(name: "KatanaTracing", targets: ["KatanaTracing"]),
        // The service demo (Examples/ServiceDemo), whose --inspect serves its live store.
        .executable(name: "katana-inspected-demo", targets: ["InspectedServiceDemo"]),
        // Test-only: the program the page tests record and serve (Tools/PageTests).
        .executable(name: "inspector-page-fixture", targets: ["InspectorPageFixture"]),
    ],
    dependencies: [
        .package(name: "Katana", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        // The inspector: a web page for a recording file or a running store (docs/Architecture.md,
        // "Modules and their dependencies": why the tools are a package of their own).
        .target(
            name: "KatanaInspector",
            dependencies: [
                .product(name: "Katana", package: "Katana"),
                .product(name: "KatanaRecording", package: "Katana"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Page")],
            swiftSettings: librarySettings
        ),
        .executableTarget(name: "katana-inspector", dependencies: ["KatanaInspector"]),
        // The root package's demo, built from the same files (Demo is a link to Examples/ServiceDemo),
        // with this folder's DemoInspection instead of the root's, which only points here.
        .executableTarget(
            name: "InspectedServiceDemo",
            dependencies: [
                "KatanaInspector",
                .product(name: "Katana", package: "Katana"),
                .product(name: "KatanaObservers", package: "Katana"),
                .product(name: "KatanaLegacy", package: "Katana"),
                .product(name: "NotificationBridge", package: "Katana"),
                .product(name: "KatanaRecording", package: "Katana"),
            ],
            exclude: ["Demo/DemoInspection.swift", "Demo/README.md"]
        ),
        .executableTarget(
            name: "InspectorPageFixture",
            dependencies: ["KatanaInspector", .product(name: "KatanaRecording", package: "Katana")],
            path: "Sources/inspector-page-fixture"
        ),
        // Test-only: a live inspector under a growing state, alone in a process whose resident
        // memory LiveMemoryBoundTests reads.
        .executableTarget(name: "inspector-memory-probe", dependencies: ["KatanaInspector", .product(name: "KatanaRecording", package: "Katana")]),
        .testTarget(
            name: "KatanaInspectorTests",
            dependencies: [
                "KatanaInspector", "InspectorPageFixture", "inspector-memory-probe", "InspectedServiceDemo", "katana-inspector", "KatanaTestSupport",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ]
        ),
        // The articles' snippets (docs/Inspecting.md, docs/LoggingAndMetrics.md), compiled and run.
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "KatanaInspector", "KatanaLogging", "KatanaMetrics", "KatanaTestSupport",
                .product(name: "Katana", package: "Katana"),
                .product(name: "KatanaRecording", package: "Katana"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What both bridges say about an item (its kind, its outcome); not a product.
        .target(name: "KatanaToolsSupport", dependencies: [.product(name: "Katana", package: "Katana")], swiftSettings: librarySettings),
        // The store's log through swift-log.
        .target(
            name: "KatanaLogging",
            dependencies: ["KatanaToolsSupport", .product(name: "Katana", package: "Katana"), .product(name: "Logging", package: "swift-log")],
            swiftSettings: librarySettings
        ),
        .testTarget(name: "KatanaLoggingTests", dependencies: ["KatanaLogging", "BridgeTestSupport", "KatanaTestSupport"]),
        // Test-only (not a product): the counter store, items and interceptors both bridges' tests use.
        .target(
            name: "BridgeTestSupport", dependencies: ["KatanaTestSupport", .product(name: "Katana", package: "Katana")], path: "Tests/BridgeTestSupport"
        ),
        // Test-only (not a product): the root package's test support (locked values and lists,
        // bounded waits, polls, settled()), built from the same files as the demo is: Tests/
        // KatanaTestSupport is a link to ../../Tests/KatanaTestSupport, since a package cannot use
        // another's target that is not a product. Without StoreWaits.swift (store.waitUntil): the
        // store's activity signal it waits on is `package` to Katana, out of this package's reach
        // ('waitUntilQuiet' is inaccessible); the bridges' tests wait on FinishLine's list instead.
        .target(
            name: "KatanaTestSupport",
            dependencies: [.product(name: "Katana", package: "Katana")],
            path: "Tests/KatanaTestSupport",
            exclude: ["StoreWaits.swift"]
        ),
        // The store's counters, timers and gauges through swift-metrics.
        .target(
            name: "KatanaMetrics",
            dependencies: ["KatanaToolsSupport", .product(name: "Katana", package: "Katana"), .product(name: "Metrics", package: "swift-metrics")],
            swiftSettings: librarySettings
        ),
        // The store's items and side effects as spans, through swift-distributed-tracing (the API
        // only: the app chooses the exporter).
        .target(
            name: "KatanaTracing",
            dependencies: [
                "KatanaToolsSupport", .product(name: "Katana", package: "Katana"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: librarySettings
        ),
        .testTarget(
            name: "KatanaTracingTests",
            dependencies: [
                "KatanaTracing", "KatanaTestSupport",
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "KatanaMetricsTests",
            dependencies: ["KatanaMetrics", "BridgeTestSupport", "KatanaTestSupport", .product(name: "MetricsTestKit", package: "swift-metrics")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// CI's run of this package under the thread sanitizer (`KATANA_TOOLS_SANITIZE=thread swift test`):
// the package's own targets are instrumented, its dependencies (NIO, Hummingbird, the root
// package, whose own sanitized run covers it) are not, so that run reuses the plain build of them
// instead of compiling a second copy of the whole tree. docs/RELIABILITY.md ("The Tools package
// under the thread sanitizer") says what the sanitizer sees this way and what it does not.
if ProcessInfo.processInfo.environment["KATANA_TOOLS_SANITIZE"] == "thread" {
    for target in package.targets {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=thread"])]
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=thread"])]
    }
}
