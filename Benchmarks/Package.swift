// swift-tools-version: 6.2
import PackageDescription

// The benchmarks live in a package of their own so that the root package keeps no dependencies:
// only this package depends on ordo-one/benchmark. It reaches the library through a path
// dependency on the repository root.
let package = Package(
    name: "KatanaBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Katana", path: ".."),
        // Only the malloc interposer (for the malloc counts); the runtime (ARC) interposer trait
        // stays off, which also keeps its extra package out of the dependency graph.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // The Tools package's interceptors (swift-log and swift-metrics bridges), and the two
        // libraries their benchmarks configure.
        .package(name: "KatanaTools", path: "../Tools"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        // glibc's allocator statistics, which the Glibc module does not export.
        .target(name: "CMallocStats"),
        .target(
            name: "KatanaBenchmarkSupport",
            dependencies: [.product(name: "Katana", package: "Katana"), "CMallocStats"]
        ),
        .executableTarget(
            name: "KatanaMemoryProbe",
            dependencies: ["KatanaBenchmarkSupport"]
        ),
        // The benchmark workloads as a plain program, for perf / valgrind (no harness, no interposer).
        .executableTarget(
            name: "KatanaProfile",
            dependencies: [
                "KatanaBenchmarkSupport",
                .product(name: "KatanaObservers", package: "Katana"),
                .product(name: "KatanaRecording", package: "Katana"),
            ]
        ),
        // The size on disk of a recorded session (a RecordingFile with and without snapshots plus
        // changes), how long its writer takes and how long reading it back takes.
        .executableTarget(
            name: "RecordingFileSize",
            dependencies: [
                "KatanaBenchmarkSupport",
                .product(name: "KatanaRecording", package: "Katana"),
            ]
        ),
        // What the dispatch context and the tracing interceptor cost per item, as a plain program
        // for valgrind; a target of its own so that KatanaProfile's binary stays as it is.
        .executableTarget(
            name: "KatanaTracingProfile",
            dependencies: [
                "KatanaBenchmarkSupport",
                .product(name: "KatanaTracing", package: "KatanaTools"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The Katana 2.x workloads (the middleware bridge) as a plain program, for perf / valgrind;
        // a target of its own so that KatanaProfile does not depend on KatanaLegacy.
        .executableTarget(
            name: "KatanaLegacyProfile",
            dependencies: [
                "KatanaBenchmarkSupport",
                .product(name: "KatanaLegacy", package: "Katana"),
            ]
        ),
        .executableTarget(
            name: "KatanaBenchmarks",
            dependencies: [
                .product(name: "Katana", package: "Katana"),
                .product(name: "KatanaObservers", package: "Katana"),
                .product(name: "KatanaLegacy", package: "Katana"),
                .product(name: "KatanaTesting", package: "Katana"),
                .product(name: "KatanaRecording", package: "Katana"),
                .product(name: "KatanaLogging", package: "KatanaTools"),
                .product(name: "KatanaMetrics", package: "KatanaTools"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                "KatanaBenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/KatanaBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
