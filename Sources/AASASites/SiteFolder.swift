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
    /// Why a folder could not be opened: errno of open(2).
    public struct OpenFailure: Error, Sendable {
        public let errno: Int32
    }

    /// Links followed for one name at most: Kubernetes' layout takes two (the file, then `..data`).
    static let linkLimit = 8

    public let path: String
    private let descriptor: Int32

    /// Opens the folder at `path`; with `followingLink` false its last component must be the
    /// folder itself, not a link to one (O_NOFOLLOW).
    public init(path: String, followingLink: Bool = true) throws(OpenFailure) {
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followingLink ? 0 : O_NOFOLLOW)
        let fd = Self.retrying { open(path, flags) }
        guard fd >= 0 else { throw OpenFailure(errno: errno) }
        self.path = path
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// The folder's entries, without `.` and `..`; nil when it cannot be listed.
    public func entries() -> [FileStatus.Entry]? {
        FileStatus.entries(ofFolder: descriptor)
    }

    /// The file `name` of this folder (a name or a relative path beneath it), read when it
    /// is a regular file of at most `limit` bytes (`FileStatus.read(descriptor:limit:)`).
    public func read(_ name: String, limit: Int) -> FileRead {
        switch openBeneath(name) {
        case .opened(let fd):
            defer { close(fd) }
            return FileStatus.read(descriptor: fd, limit: limit)
        case .failed(let error): return .failed(errno: error, nil)
        case .refused(let reason): return .linkRefused(reason)
        }
    }

    enum Opening {
        case opened(Int32)
        case failed(Int32)
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
        defer { for fd in folders { close(fd) } }
        var pending = Self.components(name).reversed() as [Substring]
        var links = 0
        var target = ""
        while let component = pending.popLast() {
            if component == ".." {
                guard let last = folders.popLast() else { return .refused(Self.outside(name, target)) }
                close(last)
                continue
            }
            let parent = folders.last ?? descriptor
            let isFile = pending.isEmpty
            let fd = Self.openAt(parent, String(component), file: isFile)
            if fd >= 0 {
                guard isFile else {
                    folders.append(fd)
                    continue
                }
                return .opened(fd)
            }
            // O_NOFOLLOW on a link fails with ELOOP, or ENOTDIR with O_DIRECTORY (open(2)).
            let error = errno
            guard error == ELOOP || error == ENOTDIR, let next = Self.target(ofLink: String(component), in: parent)
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
        return .failed(EISDIR)
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
    private static func openAt(_ parent: Int32, _ name: String, file: Bool) -> Int32 {
        guard file else { return retrying { openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) } }
        let flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        #if os(Linux)
            let fd = retrying { openat(parent, name, flags | FileStatus.noAccessTime) }
            // O_NOATIME is only for the file's owner (open(2), EPERM).
            guard fd < 0 && errno == EPERM else { return fd }
        #endif
        return retrying { openat(parent, name, flags) }
    }

    /// The target of the link `name` in `parent` (readlinkat(2)); nil when it is not a link.
    private static func target(ofLink name: String, in parent: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = buffer.withUnsafeMutableBytes { raw in
            raw.withMemoryRebound(to: CChar.self) { chars in
                chars.baseAddress.map { readlinkat(parent, name, $0, chars.count) } ?? -1
            }
        }
        // A target that fills the buffer may be cut short (readlink(2)).
        guard count > 0 && count < buffer.count else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// `call` again while it fails with EINTR; errno is that of the last call.
    private static func retrying(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
