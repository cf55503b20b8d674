// swift-tools-version:6.0
// Release-build benchmarks, kept out of the main package so `make test` stays lean.
import PackageDescription

let package = Package(
    name: "aasa-bench",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "aasa-bench",
            dependencies: [.product(name: "AssociationKit", package: "main")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
