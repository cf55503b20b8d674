import AASALoop
import AASASites

/// A path the server answers with a file of a site (`WellKnownFile.served`'s paths, a file of
/// the site's `well-known/` folder) or with its change-password redirect: an index into the
/// labels the counters use. Two bytes, so a `RequestOutcome` still comes back in registers.
struct ServedPath: Equatable {
    let index: UInt8
    /// A path of Apple's file, whose fetches by Apple's CDN are recorded.
    let isApple: Bool

    /// The labels of `aasa_requests_total{path}`: every fixed path of the table of kinds, then
    /// change-password and the `well-known/` folder's files (one label for all: bounded).
    static let labels: [String] =
        WellKnownFile.served.flatMap(\.paths) + ["/.well-known/change-password", "/.well-known/*"]
    static let changePassword = ServedPath(index: UInt8(labels.count - 2), isApple: false)
    static let folderFile = ServedPath(index: UInt8(labels.count - 1), isApple: false)

    var label: String { Self.labels[Int(index)] }
}
