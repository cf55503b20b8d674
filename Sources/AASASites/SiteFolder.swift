import AASASystem

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A site folder opened once (open(2) with O_DIRECTORY), whose files are listed and opened
/// relative to its descriptor (openat(2)) with O_NOFOLLOW, so what fstat(2) checks is what
/// is read: a link or folder swapped in after a check cannot redirect the read. A link in
/// the folder is followed only while it stays beneath it, as a ConfigMap mounted on a site
/// folder needs (`apple-app-site-association -> ..data/apple-app-site-association`); a link
/// leading anywhere else is refused, never opened (docs/serving.md, "Reading a site's files").
public final class SiteFolder: Sendable {
    /// Links followed for one name at most: Kubernetes' layout takes two (the file, then `..data`).
    static let linkLimit = 8

    public let path: String
    private let descriptor: Int32

    /// Opens the folder at `path`; with `followingLink` false its last component must be the
    /// folder itself, not a link to one (O_NOFOLLOW).
    public init(path: String, followingLink: Bool = true) throws(SystemError) {
        descriptor = try Posix.open(path, O_RDONLY | O_DIRECTORY | (followingLink ? 0 : O_NOFOLLOW))
        self.path = path
    }

    /// Opens the folder `name` of `parent` relative to its descriptor, not through a link
    /// (O_NOFOLLOW): a site's `well-known/` folder, whose files are then read beneath it.
    public init(_ name: String, in parent: SiteFolder) throws(SystemError) {
        descriptor = try Posix.openAt(parent.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
        path = parent.path + "/" + name
    }

    deinit { Posix.close(descriptor) }

    /// The folder's entries, without `.` and `..`, or why they cannot be listed
    /// (getdents64(2)): never an empty list for a listing that failed.
    public func entries() throws(SystemError) -> [FileStatus.Entry] {
        try FileStatus.entries(ofFolder: descriptor)
    }

    /// The file `name` of this folder (a name or a relative path beneath it), read when it
    /// is a regular file of at most `limit` bytes (`FileStatus.read(descriptor:limit:)`).
    public func read(_ name: String, limit: Int) -> FileRead {
        switch openBeneath(name) {
        case .opened(let fd):
            defer { Posix.close(fd) }
            return FileStatus.read(descriptor: fd, limit: limit)
        case .failed(let error): return .failed(error, nil)
        case .refused(let reason): return .linkRefused(reason)
        }
    }

    enum Opening {
        case opened(Int32)
        case failed(SystemError)
        case refused(String)
    }

    /// Opens `name` beneath the folder one component at a time, each with O_NOFOLLOW relative
    /// to the folder opened before it. A component that is a link is read (readlinkat(2)) and
    /// its target walked the same way: an absolute target, a `..` above this folder or more
    /// than `linkLimit` links is refused. The file itself is opened non-blocking (a FIFO must
    /// not hang a load) and without updating its access time when allowed (O_NOATIME).
    func openBeneath(_ name: String) -> Opening {
        // Descriptors of the folders walked into below this one; `..` closes the last.
        var folders: [Int32] = []
        defer { for fd in folders { Posix.close(fd) } }
        var pending = Self.components(name).reversed() as [Substring]
        var links = 0
        var target = ""
        while let component = pending.popLast() {
            if component == ".." {
                guard let last = folders.popLast() else { return .refused(Self.outside(name, target)) }
                Posix.close(last)
                continue
            }
            let parent = folders.last ?? descriptor
            let isFile = pending.isEmpty
            let error: SystemError
            do throws(SystemError) {
                let fd = try Self.openAt(parent, String(component), file: isFile)
                guard isFile else {
                    folders.append(fd)
                    continue
                }
                return .opened(fd)
            } catch let failure {
                error = failure
            }
            // O_NOFOLLOW on a link fails with ELOOP, or ENOTDIR with O_DIRECTORY (open(2)).
            guard error.errno == ELOOP || error.errno == ENOTDIR,
                let next = Self.target(ofLink: String(component), in: parent)
            else { return .failed(error) }
            target = next
            links += 1
            guard links <= Self.linkLimit else {
                return .refused("\(name) goes through more than \(Self.linkLimit) links, so it is not followed")
            }
            guard !target.hasPrefix("/") else { return .refused(Self.outside(name, target)) }
            pending += Self.components(target).reversed()
        }
        // The name was the folder itself (empty, `.`, or a walk back to it).
        return .failed(SystemError("openat", errno: EISDIR))
    }

    private static func outside(_ name: String, _ target: String) -> String {
        "\(name) is a link to \(target), which leads outside its folder, so it is not followed; "
            + "put the file itself in the folder"
    }

    /// The components of a relative path, without empty ones and `.`.
    private static func components(_ path: String) -> [Substring] {
        path.split(separator: "/").filter { $0 != "." }
    }

    /// openat(2) of one component with O_NOFOLLOW: a folder to walk into, or the file.
    private static func openAt(_ parent: Int32, _ name: String, file: Bool) throws(SystemError) -> Int32 {
        guard file else { return try Posix.openAt(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW) }
        return try FileStatus.openWithoutAccessTime(O_RDONLY | O_NOFOLLOW | O_NONBLOCK) { flags throws(SystemError) in
            try Posix.openAt(parent, name, flags)
        }
    }

    /// The target of the link `name` in `parent` (readlinkat(2)); nil when it is not a link.
    private static func target(ofLink name: String, in parent: Int32) -> String? {
        guard let target = try? Posix.linkTarget(name, in: parent), !target.isEmpty else { return nil }
        return String(decoding: target, as: UTF8.self)
    }
}
