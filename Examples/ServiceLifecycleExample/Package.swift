// swift-tools-version: 6.2
import PackageDescription

// docs/Lifetimes.md, "A store as one of a service's parts", compiled against swift-service-lifecycle and
// tested in a ServiceGroup. A package of its own, so that the root package keeps no dependencies;
// it reaches the library through a path dependency on the repository root.
let package = Package(
    name: "ServiceLifecycleExample",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Katana", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "StoreService",
            dependencies: [
                .product(name: "Katana", package: "Katana"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "StoreServiceTests",
            dependencies: [
                "StoreService",
                .product(name: "Katana", package: "Katana"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ]
)
