import Foundation

/// A folder of one test alone under the system's temporary folder, made at once and removed
/// with everything in it when the test lets go of it.
public final class TemporaryFolder: Sendable {
    public let url: URL

    /// `prefix` names the folder (`prefix-UUID`), so a folder left by a crash says whose it was.
    public init(_ prefix: String = "aasa-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The full path of `relativePath` below the folder (the folder itself for "").
    public func path(_ relativePath: String = "") -> String {
        relativePath.isEmpty ? url.path : url.appendingPathComponent(relativePath).path
    }

    /// Writes `text` at `relativePath`, making the folders on the way; returns its full path.
    @discardableResult
    public func write(_ relativePath: String, _ text: String) throws -> String {
        try write(relativePath, Data(text.utf8))
    }

    @discardableResult
    public func write(_ relativePath: String, _ data: Data) throws -> String {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file.path
    }

    /// Makes the folder `relativePath` and those on the way; returns its full path.
    @discardableResult
    public func folder(_ relativePath: String) throws -> String {
        let folder = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }

    /// A symbolic link at `relativePath` whose target is `target`, written as given.
    public func link(_ relativePath: String, to target: String) throws {
        let link = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target)
    }
}
