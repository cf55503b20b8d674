// swift-tools-version:6.0
// Release-build benchmarks, kept out of the main package so `make test` stays lean.
import PackageDescription

// A path dependency is named after its folder, which is whatever the clone is called.
let main = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "main"

let package = Package(
    name: "aasa-bench",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "aasa-bench",
            dependencies: [.product(name: "AssociationKit", package: main)],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
