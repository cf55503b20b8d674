import Foundation

@testable import AASAServer

/// A sites folder of one test alone, removed when the test ends, and settings that serve it.
final class SitesFolder {
    let folder: URL

    init(_ prefix: String) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.sites = folder.appendingPathComponent("sites").path
        return configuration
    }

    /// Writes `text` to `relativePath` below the folder, making the folders on its way.
    func write(_ relativePath: String, _ text: String) throws {
        let file = folder.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }
}
