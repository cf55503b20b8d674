import AASASystem
import Foundation
@preconcurrency import Glibc
import Synchronization
import TestSupport
import Testing

/// The portable wrappers (`AASASystem`): each failure is one `SystemError` naming the call,
/// its errno and its path, read at once; EINTR is retried; EBADF and EFAULT stop the process.
@Suite("Posix wrappers")
struct PosixTests {
    /// A fresh folder with a file, a folder and a link to the file.
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("aasa-posix")
        try folder.folder("folder")
        try folder.write("file", "bytes")
        try folder.link("link", to: "file")
        return folder
    }

    enum Named: Sendable {
        case nothing
        /// A name in the test's folder, by its full path.
        case inFolder(String)
        /// A name relative to a folder's descriptor (openat(2), readlinkat(2)).
        case relative(String)

        func path(root: String) -> String? {
            switch self {
            case .nothing: nil
            case .inFolder(let name): root + "/" + name
            case .relative(let name): name
            }
        }
    }

    struct Failure: CustomTestStringConvertible, Sendable {
        let name: String
        let call: String
        let errno: Int32
        /// The path the error must name.
        let path: Named
        let operation: @Sendable (String) throws(SystemError) -> Void
        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        Failure(name: "open of a missing file", call: "open", errno: ENOENT, path: .inFolder("missing")) {
            root throws(SystemError) in
            _ = try Posix.open(root + "/missing", O_RDONLY)
        },
        Failure(name: "open of a folder for writing", call: "open", errno: EISDIR, path: .inFolder("folder")) {
            root throws(SystemError) in _ = try Posix.open(root + "/folder", O_WRONLY)
        },
        Failure(name: "openat of a link with O_NOFOLLOW", call: "openat", errno: ELOOP, path: .relative("link")) {
            root throws(SystemError) in
            let folder = try Posix.open(root, O_RDONLY | O_DIRECTORY)
            defer { Posix.close(folder) }
            _ = try Posix.openAt(folder, "link", O_RDONLY | O_NOFOLLOW)
        },
        Failure(name: "stat of a missing path", call: "stat", errno: ENOENT, path: .inFolder("missing")) {
            root throws(SystemError) in _ = try Posix.status(root + "/missing", followingLinks: true)
        },
        Failure(name: "lstat through a file", call: "lstat", errno: ENOTDIR, path: .inFolder("file/x")) {
            root throws(SystemError) in _ = try Posix.status(root + "/file/x", followingLinks: false)
        },
        Failure(name: "mkdir of an existing folder", call: "mkdir", errno: EEXIST, path: .inFolder("folder")) {
            root throws(SystemError) in try Posix.makeFolder(root + "/folder", mode: 0o700)
        },
        Failure(name: "rename of a missing file", call: "rename", errno: ENOENT, path: .inFolder("target")) {
            root throws(SystemError) in try Posix.rename(root + "/missing", to: root + "/target")
        },
        Failure(name: "unlink of a folder", call: "unlink", errno: EISDIR, path: .inFolder("folder")) {
            root throws(SystemError) in try Posix.unlink(root + "/folder")
        },
        Failure(
            name: "readlinkat of a file that is no link", call: "readlinkat", errno: EINVAL, path: .relative("file")
        ) {
            root throws(SystemError) in
            let folder = try Posix.open(root, O_RDONLY | O_DIRECTORY)
            defer { Posix.close(folder) }
            _ = try Posix.linkTarget("file", in: folder)
        },
        Failure(name: "listing a file", call: "open", errno: ENOTDIR, path: .inFolder("file")) {
            root throws(SystemError) in _ = try Posix.entries(atPath: root + "/file")
        },
        // A character device cannot be synchronized (fsync(2), EINVAL).
        Failure(name: "fsync of /dev/null", call: "fsync", errno: EINVAL, path: .nothing) { _ throws(SystemError) in
            let fd = try Posix.open("/dev/null", O_WRONLY)
            defer { Posix.close(fd) }
            try Posix.fsync(fd)
        },
        // /dev/full fails every write with ENOSPC (null(4)).
        Failure(name: "write to /dev/full", call: "write", errno: ENOSPC, path: .nothing) { _ throws(SystemError) in
            let fd = try Posix.open("/dev/full", O_WRONLY)
            defer { Posix.close(fd) }
            try Posix.writeAll(fd, Array("x".utf8))
        },
    ]

    @Test("a failed call is a SystemError with the call, the errno and the path", arguments: failures)
    func failure(_ case: Failure) throws {
        let folder = try Self.folder()
        let root = folder.path()
        let error = #expect(throws: SystemError.self) { try `case`.operation(root) }
        #expect(error?.call == `case`.call)
        #expect(error?.errno == `case`.errno)
        #expect(error?.path == `case`.path.path(root: root))
        #expect(error?.description.hasSuffix(String(cString: strerror(`case`.errno))) == true)
    }
}
