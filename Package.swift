// swift-tools-version:6.0
// aasa-server: a web host for apple-app-site-association and assetlinks.json.
// Layers, bottom up (docs/ARCHITECTURE.md): C modules (system libraries and shims) →
// AssociationKit (pure: JSON with positions, model, validator, matcher) → AASASystem (every
// system call, errno-exact; portable, its Linux-only calls on Linux alone) → AASASites (site folders on disk → checked files and typed
// problems) → AASASignedData (CMS-signed files read and verified with OpenSSL, injected into
// the pure layers) → AASATransport (sockets, epoll, TLS, zlib, the HTTPS client) → AASAACME
// (certificates from an ACME CA) → AASALoop (the generic event loop core: accept, TLS, HTTP/1.1
// framing, deadlines, output, counting, the access log) → AASASiteServing (the sites' handler
// and what it answers from) → AASAServer (the composition root, reload, admin, CDN watch) →
// AASAProbe (`probe`'s checks)
// → AASAFileCommands (validate, match, diff: portable) and AASACommands (the rest, Linux) →
// the thin `aasa-server` executable.
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
// The event loop core's state is owned by one thread per loop (docs/ARCHITECTURE.md, "Threads"), so
// the run-time exclusivity checks on its class properties (a thread-local lookup per access, 17 % of
// a keep-alive request's instructions under callgrind) guard nothing; they stay on in every other
// module, the sites' application included, and debug builds and the sanitizer runs keep them
// everywhere. Cross-module optimization puts the core's public code (the loop's `run`, the handler
// contract, the writer: public for this alone, as it serializes public declarations only) and what
// it reaches into its module, so the targets that name a handler specialize the loop for it and
// inline the writer's calls (no witness call per request; bench/callgrind-requests.py).
let loopSettings: [SwiftSetting] =
    strict + [
        .unsafeFlags(
            ["-enforce-exclusivity=unchecked", "-cross-module-optimization"],
            .when(configuration: .release))
    ]

let package = Package(
    name: "aasa-server",
    products: [
        .executable(name: "aasa-server", targets: ["aasa-server"]),
        .library(name: "AssociationKit", targets: ["AssociationKit"]),
        // For the fuzz targets (Fuzz/) and benchmarks (bench/), which build as packages of their own.
        .library(
            name: "AASAServer",
            targets: [
                "AASASystem", "AASASites", "AASASignedData", "AASATransport", "AASAStore", "AASAACME", "AASALoop",
                "AASASiteServing", "AASAServer", "AASAProbe",
            ]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // C modules: includes and one-line wrappers for what Swift cannot see.
        .target(name: "CSystemShims", cSettings: [.define("_GNU_SOURCE")]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .target(name: "COpenSSLShims", dependencies: ["COpenSSL"]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "AssociationKit", swiftSettings: strict),
        // The errno-exact system-call wrappers and their one error type: the one target that makes
        // system calls (scripts/check-layers.py). Portable; its Linux-only calls (sockets, epoll,
        // eventfd, inotify: `Linux/`) are built on Linux alone, with CSystemShims.
        .target(
            name: "AASASystem", dependencies: [.target(name: "CSystemShims", condition: .when(platforms: [.linux]))],
            swiftSettings: strict),
        .target(name: "AASASites", dependencies: ["AssociationKit", "AASASystem"], swiftSettings: strict),
        // Reading and verifying CMS-signed files with OpenSSL, injected into the pure layers as a
        // `SignedFileReader`; the one OpenSSL dependency of `validate`, `match` and `diff`.
        .target(
            name: "AASASignedData", dependencies: ["AssociationKit", "COpenSSL", "COpenSSLShims"],
            swiftSettings: strict),
        .target(
            name: "AASATransport",
            dependencies: [
                "AssociationKit", "AASASignedData", "AASASystem", "CSystemShims", "CZlib", "COpenSSL", "COpenSSLShims",
            ],
            swiftSettings: strict),
        // What replicas share (docs/acme.md, "Several replicas, one store"): the store's
        // interface and its engines, a folder and PostgreSQL (libpq).
        .target(
            name: "AASAStore", dependencies: ["AASASystem", "CSystemShims", "COpenSSL", "CLibPQ"],
            swiftSettings: strict),
        .target(
            name: "AASAACME",
            dependencies: [
                "AssociationKit", "AASASystem", "AASAStore", "AASATransport", "CSystemShims", "COpenSSL",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // The generic event loop core (connections, TLS, HTTP/1.1 framing, deadlines, output,
        // counting, the access log): the one target whose state is owned by one thread per loop.
        // It knows no site (scripts/check-layers.py); AssociationKit only for the JSON writer.
        .target(
            name: "AASALoop",
            dependencies: ["AssociationKit", "AASASystem", "AASATransport", "CSystemShims"],
            swiftSettings: loopSettings),
        // The sites' application on the core: their handler, its caches, routing, prepared
        // content, ACME's HTTP-01 answers and handshake hooks, Apple's fetches. Exclusivity
        // checks on.
        .target(
            name: "AASASiteServing",
            dependencies: [
                "AssociationKit", "AASASites", "AASASystem", "AASATransport", "AASAACME", "AASALoop",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .target(
            name: "AASAServer",
            dependencies: [
                "AssociationKit", "AASASites", "AASASignedData", "AASATransport", "AASAStore", "AASAACME", "AASALoop",
                "AASASiteServing", "CSystemShims", "COpenSSL", "COpenSSLShims",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .target(
            name: "AASAProbe",
            dependencies: [
                "AssociationKit", "AASASystem", "AASASites", "AASASignedData", "AASATransport", "COpenSSL",
                "COpenSSLShims",
            ],
            swiftSettings: strict),
        // `validate`, `match` and `diff`: files only, so they build where the server cannot
        // (docs/ARCHITECTURE.md, "Portable commands"); OpenSSL's reader and the HTTPS client are installed
        // by the full command line.
        .target(
            name: "AASAFileCommands",
            dependencies: [
                "AssociationKit", "AASASystem", "AASASites",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        .target(
            name: "AASACommands",
            dependencies: [
                "AssociationKit", "AASASites", "AASASignedData", "AASASystem", "AASATransport", "AASAACME",
                "AASAServer", "AASAProbe", "AASAFileCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // Release builds link GCC's runtime into the binary, as --static-swift-stdlib does
        // Swift's, so the package depends on libc6, libssl3, zlib1g, libpq5 and libstdc++6 alone
        // (README, "Install": the toolchain's link line names C++'s runtime as a shared library).
        .executableTarget(
            name: "aasa-server",
            dependencies: ["AASAFileCommands", .target(name: "AASACommands", condition: .when(platforms: [.linux]))],
            swiftSettings: strict,
            linkerSettings: [.unsafeFlags(["-Xclang-linker", "-static-libgcc"], .when(configuration: .release))]),
        // Test targets mirror the libraries: each tests its own layer in process, with only the
        // layers below it; CommandLineTests runs the real binary. TestSupport holds what several
        // of them share (a temporary folder, site files) and is used by test targets alone.
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "AssociationKitTests", dependencies: ["AssociationKit"], swiftSettings: strict),
        .testTarget(
            name: "AASASitesTests", dependencies: ["AssociationKit", "AASASystem", "AASASites", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "AASASignedDataTests", dependencies: ["AssociationKit", "AASASignedData", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "AASATransportTests",
            dependencies: [
                "AssociationKit", "AASASystem", "AASASignedData", "AASATransport", "COpenSSL", "TestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AASAStoreTests", dependencies: ["AASASystem", "AASAStore", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "AASAACMETests",
            dependencies: [
                "AssociationKit", "AASATransport", "AASAStore", "AASAACME", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AASALoopTests",
            dependencies: ["AssociationKit", "AASASystem", "AASATransport", "AASALoop", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "AASASiteServingTests",
            dependencies: [
                "AssociationKit", "AASASites", "AASASystem", "AASATransport", "AASALoop", "AASASiteServing",
                "TestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AASAServerTests",
            dependencies: [
                "AssociationKit", "AASASites", "AASASystem", "AASASignedData", "AASATransport", "AASAStore", "AASAACME",
                "AASALoop", "AASASiteServing", "AASAServer", "TestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AASAProbeTests", dependencies: ["AASAProbe", "AASATransport", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "AASAFileCommandsTests",
            dependencies: [
                "AssociationKit", "AASASites", "AASAFileCommands", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "CommandLineTests",
            dependencies: [
                "AASACommands", "AASAFileCommands", "AssociationKit", "AASASites", "AASASystem", "AASASignedData",
                "AASATransport", "AASAACME", "AASALoop", "AASASiteServing", "AASAServer", "AASAProbe", "TestSupport",
            ],
            swiftSettings: strict),
    ]
)
