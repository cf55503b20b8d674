import Foundation
import TestSupport

/// Which of the Apple files that name one app each (`SiteFixtures.oneAppAASA(NAME)`) a
/// running server answers with: for tests that swap, delete or re-create files and watch
/// what is served.
enum ServedApp {
    /// The app named in the Apple file served for `host` at `/.well-known/PATH` (one of `names`),
    /// or the status when none is served.
    static func served(
        _ server: RunningServer, host: String = "example.com", path: String = "apple-app-site-association",
        names: [String] = ["one", "two", "three", "four"]
    ) throws -> String {
        let response = try Curl.request("http://127.0.0.1:\(server.port)/.well-known/\(path)", ["-H", "Host: \(host)"])
        guard response.status == 200 else { return "\(response.status)" }
        let text = String(decoding: response.body, as: UTF8.self)
        return names.first { text.contains("com.example.\($0)\"") } ?? text
    }
}
