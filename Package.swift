// swift-tools-version:6.0
// aasa-server: a web host for apple-app-site-association and assetlinks.json.
// Layers, bottom up: C modules (system libraries and shims) → AssociationKit (pure: JSON with
// positions, model, validator, matcher) → AASAServer (I/O: sites, later sockets, TLS, HTTP) →
// AASACommands (the command line) → the thin `aasa-server` executable.
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "aasa-server",
    products: [
        .executable(name: "aasa-server", targets: ["aasa-server"]),
        .library(name: "AssociationKit", targets: ["AssociationKit"]),
        // For the fuzz targets (Fuzz/) and benchmarks (bench/), which build as packages of their own.
        .library(name: "AASAServer", targets: ["AASAServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // C modules: includes and one-line wrappers for what Swift cannot see.
        .target(name: "CSystemShims", cSettings: [.define("_GNU_SOURCE")]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .target(name: "COpenSSLShims", dependencies: ["COpenSSL"]),
        .target(name: "AssociationKit", swiftSettings: strict),
        .target(
            name: "AASAServer",
            dependencies: [
                "AssociationKit", "CSystemShims", "CZlib", "COpenSSL", "COpenSSLShims",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict),
        .target(
            name: "AASACommands",
            dependencies: [
                "AssociationKit", "AASAServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        .executableTarget(name: "aasa-server", dependencies: ["AASACommands"], swiftSettings: strict),
        .testTarget(name: "AssociationKitTests", dependencies: ["AssociationKit"], swiftSettings: strict),
        .testTarget(name: "AASAServerTests", dependencies: ["AASAServer", "AssociationKit"], swiftSettings: strict),
        .testTarget(
            name: "CommandLineTests", dependencies: ["AASACommands", "AssociationKit", "AASAServer"],
            swiftSettings: strict),
    ]
)
