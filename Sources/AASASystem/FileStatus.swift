#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        guard let info = try? Posix.status(path, followingLinks: followingLinks) else { return nil }
        self.init(info)
    }

    /// stat(2) of `path` (links followed), and whether the user this process runs as
    /// (getuid(2), as access(2) checks) owns it with read permission: then access(2) would say
    /// it can be read, and a caller that explains refusals need not ask. Nil when stat fails.
    package static func withOwnerRead(_ path: String) -> (status: FileStatus, ownerReads: Bool)? {
        guard let info = try? Posix.status(path, followingLinks: true) else { return nil }
        return (FileStatus(info), info.st_uid == Posix.userID() && info.st_mode & S_IRUSR != 0)
    }

    private init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int(info.st_size)
        // dev_t is signed on macOS: its bits are the identity, not a number.
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(info.st_ino)
        // The times are `st_mtim` in POSIX.1-2008 and Linux, `st_mtimespec` in macOS's stat(2).
        #if canImport(Darwin)
            let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
            let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        modifiedNanoseconds = Int64(modified.tv_sec) &* 1_000_000_000 &+ Int64(modified.tv_nsec)
        changedNanoseconds = Int64(changed.tv_sec) &* 1_000_000_000 &+ Int64(changed.tv_nsec)
    }

    /// The modification time in whole seconds, clamped to what an HTTP date can say (years
    /// 1970 to 9999): a file touched to an absurd time must not make Last-Modified malformed.
    public var modifiedSeconds: Int {
        Int(min(max(modifiedNanoseconds / 1_000_000_000, 0), 253_402_300_799))
    }

    /// O_NOATIME (fcntl.h, GNU; the Glibc module does not export it): the same value on every
    /// Linux architecture Swift runs on. macOS has no such flag.
    static let noAccessTime: Int32 = 0o1_000_000

    /// Opens with `open` and `flags`, without updating the access time when allowed: O_NOATIME
    /// is only for the file's owner (open(2), EPERM), so EPERM opens again without it.
    package static func openWithoutAccessTime(
        _ flags: Int32, _ open: (Int32) throws(SystemError) -> Int32
    ) throws(SystemError) -> Int32 {
        #if os(Linux)
            do throws(SystemError) {
                return try open(flags | noAccessTime)
            } catch let error where error.errno == EPERM {}
        #endif
        return try open(flags)
    }

    /// The file at `path`, links followed (a file named on the command line), read by
    /// `read(descriptor:limit:)`. Opened without updating the access time when allowed
    /// (O_NOATIME), and non-blocking so a FIFO cannot hang a load.
    public static func read(_ path: String, limit: Int) -> FileRead {
        let fd: Int32
        do throws(SystemError) {
            fd = try openWithoutAccessTime(O_RDONLY | O_NONBLOCK) { flags throws(SystemError) in
                try Posix.open(path, flags)
            }
        } catch {
            return .failed(error, nil)
        }
        defer { Posix.close(fd) }
        return read(descriptor: fd, limit: limit)
    }

    /// Reads of a file that changed while it was read, at most, before the read gives up
    /// (`FileRead.changing`).
    package static let changeAttempts = 4

    /// How long a file must have gone unchanged before it is read (nanoseconds). write(2)
    /// updates the times before it copies its bytes, and a writer rewriting a file in place
    /// in several writes leaves a mix of two versions on disk between them; a file changed
    /// less than this long ago may be such a mix, so the read waits until it is this old.
    static let settleNanoseconds: Int64 = 100_000_000

    /// The file open on `fd`: fstat(2) decides whether it is a regular file of at most `limit`
    /// bytes, and only then are up to `limit` bytes read from the same descriptor, so the
    /// status is that of the bytes read, whatever happened to the path meanwhile. A file
    /// changed within `settleNanoseconds` is read once it has been left alone that long, and
    /// one whose size, modification or change time differ after the read (rewritten in
    /// place meanwhile) is read again from its start: bytes from two versions are not passed
    /// on as one file. One that keeps changing is `.changing` after `changeAttempts` tries.
    ///
    /// Every buffer let go on the way (a version read before a change, a partial read, the
    /// smaller buffer a grown file outgrew) is wiped first: the file may be a private key,
    /// and the bytes handed back are wiped by the caller that knows it is (PEMFileBIO).
    package static func read(descriptor fd: Int32, limit: Int) -> FileRead {
        read(descriptor: fd, limit: limit, afterRead: {}, discard: { $0.wipe() })
    }

    /// `read(descriptor:limit:)`, with what tests look into: `afterRead` runs between a read
    /// and the status after it, and `discard` is given every buffer let go.
    package static func read(
        descriptor fd: Int32, limit: Int, afterRead: () -> Void, discard: (inout [UInt8]) -> Void
    ) -> FileRead {
        var last: FileStatus?
        for attempt in 0..<changeAttempts {
            if attempt > 0 {
                do throws(SystemError) { try Posix.rewind(fd) } catch { return .failed(error, last) }
            }
            let before: FileStatus
            do throws(SystemError) {
                before = FileStatus(try Posix.status(fd))
            } catch {
                return .failed(error, last)
            }
            last = before
            guard before.kind == .regular else { return .notRegular(before) }
            guard before.size <= limit else { return .tooLarge(before) }
            let age = WallClock.nanoseconds() &- before.changedNanoseconds
            if age >= 0 && age < settleNanoseconds {
                // Changed just now: wait until it has been left alone long enough, then look again.
                pause(nanoseconds: settleNanoseconds - age)
                guard let settled = try? FileStatus(Posix.status(fd)), settled.isSameVersion(as: before) else {
                    continue
                }
            }
            var bytes: [UInt8]
            switch readBytes(fd, expected: before.size, limit: limit, discard: discard) {
            case .success(let read): bytes = read
            case .failure(let error): return .failed(error, before)
            }
            afterRead()
            let after: FileStatus
            do throws(SystemError) {
                after = FileStatus(try Posix.status(fd))
            } catch {
                discard(&bytes)
                return .failed(error, before)
            }
            last = after
            if after.isSameVersion(as: before) { return .regular(after, bytes: bytes) }
            discard(&bytes)
        }
        guard let last else { return .failed(SystemError("read", errno: EAGAIN), nil) }
        return .changing(last)
    }

    /// The same file with the same size and times: no write between the two statuses.
    func isSameVersion(as other: FileStatus) -> Bool {
        size == other.size && modifiedNanoseconds == other.modifiedNanoseconds
            && changedNanoseconds == other.changedNanoseconds && inode == other.inode && device == other.device
    }

    /// Up to `limit` bytes from the descriptor's offset, in a buffer sized for `expected`.
    private static func readBytes(
        _ fd: Int32, expected: Int, limit: Int, discard: (inout [UInt8]) -> Void
    ) -> Result<[UInt8], SystemError> {
        var bytes = [UInt8](repeating: 0, count: max(1, min(limit, expected + 1)))
        var filled = 0
        reading: while true {
            if filled == bytes.count {
                guard bytes.count < limit else { break }
                // Grown by a copy into a larger buffer, the smaller one wiped (`+=` would
                // reallocate and free it as it was).
                var grown = [UInt8](repeating: 0, count: bytes.count + min(bytes.count, limit - bytes.count))
                grown.withUnsafeMutableBytes { target in bytes.withUnsafeBytes { target.copyMemory(from: $0) } }
                discard(&bytes)
                bytes = grown
            }
            let result = bytes.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in
                    try Posix.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                }
            }
            switch result {
            case .success(.processed(0)): break reading
            case .success(.processed(let count)): filled += count
            // A regular file never blocks (read(2)); a descriptor that does is not one to wait on.
            case .success(.wouldBlock):
                discard(&bytes)
                return .failure(SystemError("read", errno: EAGAIN))
            case .failure(let error):
                discard(&bytes)
                return .failure(error)
            }
            // A short read of a regular file is its end (read(2)): no call just to see EOF.
            if filled < bytes.count { break }
        }
        // In place: the array is its buffer's only reference, so the capacity is kept, not copied.
        bytes.removeSubrange(filled...)
        return .success(bytes)
    }

    /// nanosleep(2), resumed after a signal.
    private static func pause(nanoseconds: Int64) {
        var left = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var rest = timespec()
        while nanosleep(&left, &rest) != 0 && errno == EINTR { left = rest }
    }

    /// One name in a folder, with its type when readdir(3) knows it (`d_type`; nil for
    /// DT_UNKNOWN, which some file systems always give), so a listing needs no stat per entry.
    public struct Entry: Sendable {
        public let name: String
        public let kind: Kind?

        init(_ entry: FolderEntry) {
            name = entry.name
            kind =
                switch Int32(entry.type) {
                case Int32(DT_DIR): .directory
                case Int32(DT_LNK): .symbolicLink
                case Int32(DT_REG): .regular
                case Int32(DT_UNKNOWN): nil
                default: .other
                }
        }
    }

    /// The entries of the folder at `path` (readdir(3)), without `.` and `..`; nil when it
    /// cannot be listed.
    public static func entries(in path: String) -> [Entry]? {
        (try? Posix.entries(atPath: path))?.map(Entry.init)
    }

    /// The entries of the folder at `path`, without `.` and `..`, or why it cannot be listed:
    /// a listing that failed is never an empty folder.
    public static func listing(of path: String) throws(SystemError) -> [Entry] {
        try Posix.entries(atPath: path).map(Entry.init)
    }

    /// The entries of the folder open on `fd`, without `.` and `..`, or why it cannot be listed.
    package static func entries(ofFolder fd: Int32) throws(SystemError) -> [Entry] {
        try Posix.entries(ofFolder: fd).map(Entry.init)
    }

    /// The names in the folder at `path`; nil when it cannot be listed.
    public static func names(in path: String) -> [String]? {
        entries(in: path)?.map(\.name)
    }
}
