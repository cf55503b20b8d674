@preconcurrency import Glibc

/// What stat(2) says of a path: its type, size and times, and the identity that tells a
/// reload whether a file changed since it was last read (git's index works the same way):
/// a write changes the modification and change times, a rename or a new file changes the
/// inode, a chmod changes the change time (stat(2), "The file timestamps").
public struct FileStatus: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case regular, directory, symbolicLink, other
    }

    public let kind: Kind
    public let size: Int
    public let device: UInt64
    public let inode: UInt64
    public let modifiedNanoseconds: Int64
    public let changedNanoseconds: Int64

    /// stat(2) of `path`, or lstat(2) when `followingLinks` is false; nil when it fails.
    public init?(_ path: String, followingLinks: Bool = true) {
        var info = stat()
        let result = followingLinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int(info.st_size)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        modifiedNanoseconds = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        changedNanoseconds = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
    }

    /// The modification time in whole seconds, clamped to what an HTTP date can say (years
    /// 1970 to 9999): a file touched to an absurd time must not make Last-Modified malformed.
    public var modifiedSeconds: Int {
        Int(min(max(modifiedNanoseconds / 1_000_000_000, 0), 253_402_300_799))
    }

    /// Up to `limit` bytes of the file at `path` (open(2), read(2)), read into one buffer
    /// sized by `expectedSize` (the stat size, plus one byte to notice a file that grew);
    /// nil when it cannot be opened or read.
    public static func contents(of path: String, limit: Int, expectedSize: Int = 4096) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: max(1, min(limit, expectedSize + 1)))
        var filled = 0
        while true {
            if filled == bytes.count {
                guard bytes.count < limit else { break }
                bytes += repeatElement(0, count: min(bytes.count, limit - bytes.count))
            }
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + filled }, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// The names in the folder at `path` (readdir(3)), without `.` and `..`; nil when it
    /// cannot be listed.
    public static func names(in path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
