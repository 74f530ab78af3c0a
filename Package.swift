// swift-tools-version: 6.2
import PackageDescription

/// Settings every library target shares: Swift 6 language mode is the package default, and a
/// warning in library code fails the build.
let librarySettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "Katana",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Katana", targets: ["Katana"]),
        .library(name: "KatanaObservers", targets: ["KatanaObservers"]),
        .library(name: "NotificationBridge", targets: ["NotificationBridge"]),
        .library(name: "KatanaLegacy", targets: ["KatanaLegacy"]),
        .library(name: "KatanaTesting", targets: ["KatanaTesting"]),
        .library(name: "KatanaRecording", targets: ["KatanaRecording"]),
        .executable(name: "katana-service-demo", targets: ["katana-service-demo"]),
    ],
    targets: [
        .target(name: "Katana", dependencies: ["KatanaThreadSlots"], swiftSettings: librarySettings),
        // Per-thread slots in C, for Katana's markers (Swift has no thread-local storage of its own).
        .target(name: "KatanaThreadSlots"),
        .testTarget(
            name: "KatanaTests",
            dependencies: ["KatanaTestSupport", "Katana", "katana-precondition-probe", "TestProgramSupport", "DocumentationSupport"]
        ),
        // Test-only: a program that makes the store's documented programming errors, run as a
        // child process by `StorePreconditionTests` (and built with `-c release` in CI).
        .executableTarget(name: "katana-precondition-probe", dependencies: ["Katana", "KatanaTestSupport"], path: "Tests/PreconditionProbe"),
        // Test-only: subscribes to the signals it is given, then crashes; run as a child process by
        // `FaultSignalProbeTests` (NotificationBridgeTests).
        .executableTarget(name: "notification-bridge-fault-probe", dependencies: ["NotificationBridge"], path: "Tests/BridgeFaultProbe"),
        .target(name: "KatanaObservers", dependencies: ["Katana"], swiftSettings: librarySettings),
        .testTarget(name: "KatanaObserversTests", dependencies: ["KatanaTestSupport", "KatanaObservers"]),
        .target(name: "NotificationBridge", swiftSettings: librarySettings),
        .testTarget(
            name: "NotificationBridgeTests",
            dependencies: [
                "KatanaTestSupport", "NotificationBridge", "KatanaObservers", "SignalTestSupport", "TestProgramSupport",
                "notification-bridge-fault-probe",
            ]
        ),
        // Test-only (not a product): process-wide exclusive access to signals, shared by every
        // test target that sends signals or changes dispositions, since all run in one process.
        .target(name: "SignalTestSupport", dependencies: ["KatanaTestSupport"], path: "Tests/SignalTestSupport"),
        // Test-only (not a product): finds a test-only program built next to the tests and runs it
        // as a child process with a deadline (the probes above and the memory soak's).
        .target(name: "TestProgramSupport", dependencies: ["KatanaTestSupport"], path: "Tests/TestProgramSupport"),
        // Test-only (not a product): reads the package's markdown (sections, snippets, links) for
        // the tests that hold the README and the articles under docs/ to the code.
        .target(name: "DocumentationSupport", path: "Tests/DocumentationSupport"),
        // Test-only: what every test target shares — a locked value and list, bounded waits on the
        // store's signal, a list's appends or a promise, a bounded poll for conditions nothing
        // signals, blocking calls run on a thread of their own, and a seeded random generator
        // (`SplitMix`) for tests that draw random sequences (the Tools package builds the
        // same files, through a link, but for the store's signal: see Tools/Package.swift).
        .target(name: "KatanaTestSupport", dependencies: ["Katana"], path: "Tests/KatanaTestSupport"),
        // Load, faults, release under load, signal and timer storms, memory soak, bad input.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "KatanaTestSupport", "Katana", "KatanaObservers", "KatanaLegacy", "NotificationBridge", "SignalTestSupport",
                "TestProgramSupport", "katana-memory-soak-probe",
            ]
        ),
        // Test-only: the memory soak in a process of its own, run as a child process by
        // `MemorySoakTests`, so that other tests' allocations do not move its resident set.
        .executableTarget(name: "katana-memory-soak-probe", dependencies: ["Katana", "KatanaTestSupport"], path: "Tests/MemorySoakProbe"),
        .target(name: "KatanaLegacy", dependencies: ["Katana"], swiftSettings: librarySettings),
        .testTarget(
            name: "KatanaLegacyTests",
            dependencies: ["KatanaTestSupport", "Katana", "KatanaLegacy", "KatanaObservers", "KatanaTesting", "KatanaRecording", "DocumentationSupport"]
        ),
        // Written the way a Katana 2.x app is: Swift 5 language mode.
        .testTarget(
            name: "KatanaLegacyClientTests",
            dependencies: ["KatanaTestSupport", "Katana", "KatanaLegacy"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The runnable service demo (`swift run katana-service-demo`) and its end-to-end test.
        .executableTarget(
            name: "katana-service-demo",
            dependencies: ["Katana", "KatanaObservers", "KatanaLegacy", "NotificationBridge", "KatanaRecording"],
            path: "Examples/ServiceDemo",
            exclude: ["README.md"]
        ),
        .testTarget(
            name: "ServiceDemoTests",
            dependencies: ["KatanaTestSupport", "katana-service-demo", "Katana", "KatanaObservers", "KatanaTesting", "KatanaRecording", "DocumentationSupport"]
        ),
        // Testing support for apps built on the store (XCTest and Swift Testing).
        .target(name: "KatanaTesting", dependencies: ["Katana", "KatanaRecording"], swiftSettings: librarySettings),
        .testTarget(name: "KatanaTestingTests", dependencies: ["KatanaTestSupport", "KatanaTesting", "KatanaObservers", "KatanaLegacy"]),
        // Recording a store's history and replaying it (docs/Architecture.md, "Modules and their
        // dependencies").
        .target(name: "KatanaRecording", dependencies: ["Katana"], swiftSettings: librarySettings),
        .testTarget(
            name: "KatanaRecordingTests",
            dependencies: ["KatanaTestSupport", "KatanaRecording", "KatanaTesting", "KatanaObservers", "KatanaLegacy", "DocumentationSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
