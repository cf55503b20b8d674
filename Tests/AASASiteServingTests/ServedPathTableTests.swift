import AASASites
import Testing

@testable import AASALoop
@testable import AASASiteServing

/// The request path's lookup of the table of kinds: every served path by its bytes, a query
/// ignored, any other path under `/.well-known/` known as such (never a fallback's), the rest other.
@Suite("served paths")
struct ServedPathTableTests {
    enum Expected: Equatable {
        case served(String)
        case wellKnown(String)
        case other
    }

    static func match(_ path: String) -> Expected {
        let table = ServedPathTable()
        let bytes = Array(path.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            switch table.match(buffer, 0..<bytes.count) {
            case .served(let served, let slot):
                #expect(WellKnownFile.served[slot].paths.contains(served.label))
                return .served(served.label)
            case .wellKnown(let tail): return .wellKnown(String(decoding: buffer[tail], as: UTF8.self))
            case .other: return .other
            }
        }
    }

    @Test("every path of the table is found, with or without a query")
    func served() {
        for path in WellKnownFile.served.flatMap(\.paths) {
            #expect(Self.match(path) == .served(path))
            #expect(Self.match(path + "?x=1") == .served(path))
        }
    }

    @Test(
        "other paths",
        arguments: [
            ("/.well-known/nodeinfo", Expected.wellKnown("nodeinfo")),
            ("/.well-known/change-password?x", .wellKnown("change-password")),
            ("/.well-known/", .wellKnown("")),
            ("/.well-known/webauthn/", .wellKnown("webauthn/")),
            ("/.well-known", .other), ("/", .other), ("", .other), ("/p/1", .other), ("/.wellknown/webauthn", .other),
            ("/apple-app-site-association/", .other),
        ])
    func others(_ path: String, _ expected: Expected) {
        #expect(Self.match(path) == expected)
    }

    @Test("the counters have a label per served path, change-password, the folder's files and other")
    func labels() {
        let labels = SiteHandler.countedPaths
        #expect(labels.count == WellKnownFile.served.flatMap(\.paths).count + 2)
        #expect(ServedPath.changePassword.label == "/.well-known/change-password")
        var counts = RequestCounts(paths: labels.count)
        #expect(counts.isEmpty)
        counts.add(path: ServedPath.folderFile.index, status: .ok)
        counts.add(path: nil, status: .notFound)
        #expect(!counts.isEmpty)
        #expect(counts.nonZero(labels: labels).map(\.path).sorted() == ["/.well-known/*", "other"])
        counts.reset()
        #expect(counts.isEmpty && counts.nonZero(labels: labels).isEmpty)
    }
}
