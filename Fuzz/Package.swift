// swift-tools-version:6.0
// Fuzz targets for aasa-server's parsers, built only by `make fuzz` (libFuzzer and
// AddressSanitizer through swiftc's -sanitize=fuzzer,address, given on the command line).
import PackageDescription

// A path dependency is named after its folder, which is whatever the clone is called.
let main = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "main"

let package = Package(
    name: "aasa-fuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "aasa-fuzz",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "AssociationKit", package: main),
                .product(name: "AASAServer", package: main),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
