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
        self.init(info)
    }

    private init(_ info: stat) {
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

    /// O_NOATIME (fcntl.h, GNU; the Glibc module does not export it): the same value on every
    /// Linux architecture Swift runs on.
    static let noAccessTime: Int32 = 0o1_000_000

    /// The file at `path`, links followed (a file named on the command line), read by
    /// `read(descriptor:limit:)`. Opened without updating the access time when allowed
    /// (O_NOATIME), and non-blocking so a FIFO cannot hang a load.
    public static func read(_ path: String, limit: Int) -> FileRead {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK
        var fd = open(path, flags | noAccessTime)
        // O_NOATIME is only for the file's owner (open(2), EPERM).
        if fd < 0 && errno == EPERM { fd = open(path, flags) }
        guard fd >= 0 else { return .failed(errno: errno, nil) }
        defer { close(fd) }
        return read(descriptor: fd, limit: limit)
    }

    /// The file open on `fd`: fstat(2) decides whether it is a regular file of at most `limit`
    /// bytes, and only then are up to `limit` bytes read from the same descriptor, so the
    /// status is that of the bytes read, whatever happened to the path meanwhile.
    static func read(descriptor fd: Int32, limit: Int) -> FileRead {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failed(errno: errno, nil) }
        let status = FileStatus(info)
        guard status.kind == .regular else { return .notRegular(status) }
        guard status.size <= limit else { return .tooLarge(status) }
        var bytes = [UInt8](repeating: 0, count: max(1, min(limit, status.size + 1)))
        var filled = 0
        while true {
            if filled == bytes.count {
                guard bytes.count < limit else { break }
                bytes += repeatElement(0, count: min(bytes.count, limit - bytes.count))
            }
            let count = bytes.withUnsafeMutableBytes {
                Glibc.read(fd, $0.baseAddress.map { $0 + filled }, $0.count - filled)
            }
            if count < 0 {
                let error = errno
                if error == EINTR { continue }
                return .failed(errno: error, status)
            }
            if count == 0 { break }
            filled += count
            // A short read of a regular file is its end (read(2)): no call just to see EOF.
            if filled < bytes.count { break }
        }
        bytes.removeSubrange(filled...)
        return .regular(status, bytes: bytes)
    }

    /// One name in a folder, with its type when readdir(3) knows it (`d_type`; nil for
    /// DT_UNKNOWN, which some file systems always give), so a listing needs no stat per entry.
    public struct Entry: Sendable {
        public let name: String
        public let kind: Kind?
    }

    /// The entries of the folder at `path` (readdir(3)), without `.` and `..`; nil when it
    /// cannot be listed.
    public static func entries(in path: String) -> [Entry]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        return entries(of: folder)
    }

    /// The entries of the folder open on `fd` (fdopendir(3) of a duplicate, which it takes
    /// over, rewound since a duplicate shares the offset); nil when it cannot be listed.
    static func entries(ofFolder fd: Int32) -> [Entry]? {
        let copy = dup(fd)
        guard copy >= 0 else { return nil }
        guard let folder = fdopendir(copy) else {
            close(copy)
            return nil
        }
        defer { closedir(folder) }
        rewinddir(folder)
        return entries(of: folder)
    }

    private static func entries(of folder: OpaquePointer) -> [Entry] {
        var entries: [Entry] = []
        while let entry = readdir(folder) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name != "." && name != ".." else { continue }
            let kind: Kind? =
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_DIR): .directory
                case Int32(DT_LNK): .symbolicLink
                case Int32(DT_REG): .regular
                case Int32(DT_UNKNOWN): nil
                default: .other
                }
            entries.append(Entry(name: name, kind: kind))
        }
        return entries
    }

    /// The names in the folder at `path`; nil when it cannot be listed.
    public static func names(in path: String) -> [String]? {
        entries(in: path)?.map(\.name)
    }
}
