import Foundation

/// A temporary folder of site folders, removed when the test ends.
final class SitesFixture {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-sites-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ relativePath: String) -> String {
        url.appendingPathComponent(relativePath).path
    }

    /// Writes `text` at `relativePath`, making the folders on the way.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    func folder(_ relativePath: String) throws {
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent(relativePath), withIntermediateDirectories: true)
    }

    /// A symbolic link at `relativePath` whose target is `target`, written as given.
    func link(_ relativePath: String, to target: String) throws {
        let link = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
