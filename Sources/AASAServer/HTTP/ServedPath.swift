@preconcurrency import Glibc

/// The three paths the server answers; every other path is 404, never a redirect.
enum ServedPath {
    case appleWellKnown, appleRoot, androidWellKnown

    static let appleWellKnownBytes = Array("/.well-known/apple-app-site-association".utf8)
    static let appleRootBytes = Array("/apple-app-site-association".utf8)
    static let androidWellKnownBytes = Array("/.well-known/assetlinks.json".utf8)

    /// The label of the path in metrics.
    var label: String {
        switch self {
        case .appleWellKnown: "/.well-known/apple-app-site-association"
        case .appleRoot: "/apple-app-site-association"
        case .androidWellKnown: "/.well-known/assetlinks.json"
        }
    }

    /// The path of an origin-form target, before any query (which is ignored).
    init?(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var end = range.lowerBound
        while end < range.upperBound, buffer[end] != UInt8(ascii: "?") { end += 1 }
        let path = UnsafeBufferPointer(rebasing: buffer[range.lowerBound..<end])
        if Self.equal(path, Self.appleWellKnownBytes) {
            self = .appleWellKnown
        } else if Self.equal(path, Self.appleRootBytes) {
            self = .appleRoot
        } else if Self.equal(path, Self.androidWellKnownBytes) {
            self = .androidWellKnown
        } else {
            return nil
        }
    }

    /// Byte equality by length, then memcmp(3): the request path's hot comparison.
    @inline(__always)
    static func equal(_ path: UnsafeBufferPointer<UInt8>, _ bytes: [UInt8]) -> Bool {
        guard path.count == bytes.count, let start = path.baseAddress else { return path.count == bytes.count }
        return bytes.withUnsafeBufferPointer { $0.baseAddress.map { memcmp(start, $0, bytes.count) == 0 } ?? false }
    }
}
