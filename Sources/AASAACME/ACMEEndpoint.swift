import Foundation

/// An https URL of the CA taken apart for `HTTPSClient`: host, port and path with query.
struct ACMEEndpoint: Sendable, Equatable {
    let host: String
    let port: Int
    let path: String

    init(_ url: String) throws(ACMEProblem) {
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty
        else { throw ACMEProblem.malformed("not an https URL: \(url.prefix(200))") }
        self.host = host
        port = components.port ?? 443
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        self.path = path + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    }
}
