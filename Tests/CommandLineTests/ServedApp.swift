import Foundation

/// Apple files that name one app each (`ABCDE12345.com.example.NAME`), and which of them a
/// running server answers with: for tests that swap, delete or re-create files and watch
/// what is served.
enum ServedApp {
    static func file(_ app: String) -> String {
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.\#(app)"], "components": [{"/": "/*"}]}]}}"#
    }

    /// The app named in the Apple file served for `host` (one of `names`), or the status when
    /// none is served.
    static func served(
        _ server: RunningServer, host: String = "example.com", names: [String] = ["one", "two", "three", "four"]
    ) throws -> String {
        let response = try Curl.request(
            "http://127.0.0.1:\(server.port)/.well-known/apple-app-site-association", ["-H", "Host: \(host)"])
        guard response.status == 200 else { return "\(response.status)" }
        let text = String(decoding: response.body, as: UTF8.self)
        return names.first { text.contains("com.example.\($0)\"") } ?? text
    }
}
