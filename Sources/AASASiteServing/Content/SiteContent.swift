import AASALoop
import AASASites
@preconcurrency import Glibc

/// What one site folder serves: its prepared files and nothing else, so a site costs little
/// more than its files (the matcher the status page's URL tester needs is compiled on first
/// use, `ServedFileCache` in AASAServer). Every argument is required: a kind the loader forgot
/// cannot compile into a 404. `@unchecked Sendable`: its files' slots are written once, in
/// `init`, and only read after.
public final class SiteContent: @unchecked Sendable, CountedSite {
    /// A file of the site's `well-known/` folder, served at `/.well-known/NAME`.
    struct FolderFile: Sendable {
        let name: [UInt8]
        let file: PreparedFile
    }

    public let name: String
    /// The files served at fixed paths, by their kind's slot (`WellKnownFile.served`'s order) up
    /// to the last one the site has: read through a pointer, so a request retains only the file
    /// it sends, and a site with only Apple's file keeps one slot.
    private let files: UnsafeMutableBufferPointer<PreparedFile?>
    /// The files of its `well-known/` folder, in name order.
    let folderFiles: [FolderFile]
    /// `/.well-known/change-password`'s 302, from `site.json`'s `changePassword`.
    package let changePassword: PreparedRedirect?
    /// What its other paths answer (`fallback.json`), compiled with its files' matchers.
    package let fallback: SiteFallback?

    /// `files` by kind (kinds that are not served are ignored); `folderFiles` by their name in
    /// the `well-known/` folder.
    package init(
        name: String, files: [FileCheck.Kind: PreparedFile], folderFiles: [String: PreparedFile],
        changePassword: PreparedRedirect?, fallback: SiteFallback?
    ) {
        self.name = name
        let slots = WellKnownFile.served.map { files[$0.kind] }
        let used = (slots.lastIndex { $0 != nil } ?? -1) + 1
        // A site serving none of them allocates nothing.
        self.files = used == 0 ? UnsafeMutableBufferPointer(start: nil, count: 0) : .allocate(capacity: used)
        _ = self.files.initialize(from: slots.prefix(used))
        self.folderFiles = folderFiles.sorted { $0.key < $1.key }.map {
            FolderFile(name: Array($0.key.utf8), file: $0.value)
        }
        self.changePassword = changePassword
        self.fallback = fallback
    }

    deinit {
        guard !files.isEmpty else { return }
        _ = files.deinitialize()
        files.deallocate()
    }

    /// The file of the kind in `slot` (`WellKnownFile.served`'s order).
    @inline(__always)
    func file(slot: Int) -> PreparedFile? {
        slot < files.count ? files[slot] : nil
    }

    /// The served file of `kind`; nil for the kinds never served (expectations, fallback).
    public func file(_ kind: FileCheck.Kind) -> PreparedFile? {
        WellKnownFile.served.firstIndex { $0.kind == kind }.flatMap(file(slot:))
    }

    /// Apple's file (the CDN watch, the status page's URL tester).
    public var apple: PreparedFile? { file(.apple) }
    /// Android's file (Google's watch, the URL tester).
    public var android: PreparedFile? { file(.android) }

    /// The file `name` of its `well-known/` folder.
    public func folderFile(_ name: String) -> PreparedFile? {
        let bytes = Array(name.utf8)
        return folderFiles.first { $0.name == bytes }?.file
    }

    /// The file served for `name`, a file's name in the site folder (`FileCheck.name`): a
    /// kind's, or `well-known/NAME`.
    public func file(named name: String) -> PreparedFile? {
        let prefix = WellKnownFile.folderName + "/"
        if name.hasPrefix(prefix) { return folderFile(String(name.dropFirst(prefix.count))) }
        return FileCheck.Kind(rawValue: name).flatMap(file)
    }

    /// The names (`FileCheck.name`) of every file it serves.
    public var servedNames: [String] {
        WellKnownFile.served.indices.compactMap { file(slot: $0) == nil ? nil : WellKnownFile.served[$0].fileName }
            + folderFiles.map { WellKnownFile.folderName + "/" + String(decoding: $0.name, as: UTF8.self) }
    }

    /// The `well-known/` folder's files by name.
    public var folderFilesByName: [String: PreparedFile] {
        Dictionary(uniqueKeysWithValues: folderFiles.map { (String(decoding: $0.name, as: UTF8.self), $0.file) })
    }

    /// The file of the `well-known/` folder named by `tail` of `buffer`: a scan of the site's
    /// few names, without allocating.
    @inline(__always)
    func folderFile(_ buffer: UnsafeBufferPointer<UInt8>, _ tail: Range<Int>) -> PreparedFile? {
        guard !folderFiles.isEmpty, let base = buffer.baseAddress else { return nil }
        for entry in folderFiles where entry.name.count == tail.count {
            let same = entry.name.withUnsafeBufferPointer { name in
                name.baseAddress.map { memcmp(base + tail.lowerBound, $0, tail.count) == 0 } ?? tail.isEmpty
            }
            if same { return entry.file }
        }
        return nil
    }

    /// True when the site has a `fallback.json` (`/sites.json`, the status page).
    public var hasFallback: Bool { fallback != nil }

    /// True when both serve the same files (a reload can then keep the old object).
    package func servesSameFiles(as other: SiteContent) -> Bool {
        WellKnownFile.served.indices.allSatisfy { slot in
            let theirs = other.file(slot: slot)
            return file(slot: slot).map { $0.isSameFile(as: theirs) } ?? (theirs == nil)
        }
            && folderFiles.count == other.folderFiles.count
            && zip(folderFiles, other.folderFiles).allSatisfy { $0.name == $1.name && $0.file.isSameFile(as: $1.file) }
            && changePassword == other.changePassword && fallback?.bytes == other.fallback?.bytes
    }
}
