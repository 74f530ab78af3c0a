// swift-tools-version: 6.2
import PackageDescription

// A traced service: an order service and a payment service, each a store behind a Hummingbird
// server, whose spans leave the process through swift-otel's OTLP exporter, set up from the standard
// OTEL_* environment variables. A package of its own: the libraries depend on the tracing API only,
// and the exporter is the app's choice. It reaches Katana and the Tools package by path.
let package = Package(
    name: "TracedService",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Katana", path: "../.."),
        .package(name: "KatanaTools", path: "../../Tools"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // OTLP over HTTP only: the gRPC exporter's packages stay out of the build.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // The two services' stores, routes and the call between them; knows nothing of the exporter.
        .target(
            name: "TracedService",
            dependencies: [
                .product(name: "Katana", package: "Katana"),
                .product(name: "KatanaTracing", package: "KatanaTools"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // The program: bootstraps swift-otel from the environment, then runs one of the services.
        .executableTarget(
            name: "traced-service",
            dependencies: [
                "TracedService",
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Test-only: the root package's waits and locked boxes, built from its files (a link to
        // ../../Tests/KatanaTestSupport), without the store waits that need Katana's package access.
        .target(
            name: "KatanaTestSupport",
            dependencies: [.product(name: "Katana", package: "Katana")],
            path: "Tests/KatanaTestSupport",
            exclude: ["StoreWaits.swift"]
        ),
        .testTarget(
            name: "TracedServiceTests",
            dependencies: [
                "traced-service",
                "KatanaTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
    ]
)
