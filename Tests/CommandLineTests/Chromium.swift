import Foundation
import TestSupport
import Testing

/// Debian's headless Chromium, for the pages a browser runs; a test that needs it fails
/// where it is missing (.ci/run installs it) rather than passing unseen.
enum Chromium {
    static var path: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Sets the document's title if it runs: the payloads' one effect, without quotes of its own.
    static let effect = "document.title=/pwned/.source"

    /// `text` percent-encoded but for letters and digits, for a query or path a payload rides in.
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    /// What Chromium printed when run with `arguments`, in a profile of its own.
    static func run(_ arguments: [String]) throws -> String {
        let browser = try #require(path, "chromium is needed for this test (.ci/run installs it)")
        let profile = try TemporaryFolder("aasa-chromium")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--user-data-dir=\(profile.path())",
            ]
            + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// The DOM of `url` after the page ran whatever it would (virtual time lets focus and
    /// error handlers fire); `options` go before the URL.
    static func dom(_ url: String, _ options: [String] = []) throws -> String {
        try run(["--virtual-time-budget=3000"] + options + ["--dump-dom", url])
    }
}
