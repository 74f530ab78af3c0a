// swift-tools-version: 6.2
import PackageDescription

/// Settings every library target shares: Swift 6 language mode is the package default, and a
/// warning in library code fails the build.
let librarySettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "Katana",
    products: [
        .library(name: "Katana", targets: ["Katana"]),
        .library(name: "NotificationBridge", targets: ["NotificationBridge"]),
    ],
    targets: [
        .target(name: "Katana", swiftSettings: librarySettings),
        .testTarget(name: "KatanaTests", dependencies: ["Katana"]),
        .target(name: "NotificationBridge", swiftSettings: librarySettings),
        .testTarget(name: "NotificationBridgeTests", dependencies: ["NotificationBridge"]),
    ],
    swiftLanguageModes: [.v6]
)
