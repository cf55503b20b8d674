import AASASystem
import Foundation
@preconcurrency import Glibc

/// The file-system care of the folder engine, also used by ACME's folder: private folders
/// (0700, this user's), files written whole under an unpredictable temporary name (O_EXCL |
/// O_NOFOLLOW, fsync(2), rename(2)), reads that never follow a link.
package enum FolderFiles {
    /// fsync(2) of a descriptor, named by its path for the error; a test passes one that fails,
    /// which no file system it can write to does.
    package typealias Sync = (Int32, String?) throws(SystemError) -> Void

    /// A folder this user owns with mode 0700 (fchmod(2) on the opened folder, so a swap
    /// between the check and the change cannot redirect it). A folder of another user is
    /// refused: its owner could read or swap the keys.
    package static func enforcePrivate(_ path: String) throws(StoreError) {
        let status: stat
        let fd: Int32
        do throws(SystemError) {
            fd = try Posix.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
            status = try Posix.status(fd)
        } catch {
            throw StoreError.io("cannot use \(path): \(error)")
        }
        defer { Posix.close(fd) }
        guard status.st_uid == Posix.effectiveUserID() else {
            throw StoreError.refused(
                "cannot use \(path): it belongs to user \(status.st_uid), not to this process's user \(Posix.effectiveUserID()); "
                    + "give it to this user or remove it")
        }
        if status.st_mode & 0o7777 != 0o700 {
            do throws(SystemError) { try Posix.changeMode(fd, 0o700) } catch {
                throw StoreError.io("cannot use \(path): \(error)")
            }
        }
    }

    /// mkdir(2) of `path` (0700), which may already exist.
    package static func makeFolderIfMissing(_ path: String) throws(SystemError) {
        do throws(SystemError) {
            try Posix.makeFolder(path, mode: 0o700)
        } catch let error where error.errno == EEXIST {}
    }

    /// 16 random hex digits: a temporary name no other process can plant a link at beforehand.
    package static func randomSuffix() -> String {
        let value = UInt64.random(in: .min ... .max)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Writes to a hidden temporary file of `mode` (created with it: a key is never readable
    /// by others, not even for a moment), fsyncs, and renames it into place, then fsyncs the
    /// folder. The temporary name is unpredictable and open(2) has O_EXCL|O_NOFOLLOW, so
    /// nothing already there, a link least of all, is ever written through. A failed fsync(2)
    /// is a failure: the bytes may not be on disk (fsync(2), ERRORS).
    package static func writeAtomically(
        _ bytes: [UInt8], to path: String, mode: mode_t, sync: Sync = Posix.fsync
    ) throws(SystemError) {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder as NSString).appendingPathComponent(
            ".\((path as NSString).lastPathComponent).\(randomSuffix()).tmp")
        let fd = try Posix.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode)
        do throws(SystemError) {
            try Posix.writeAll(fd, bytes, path: temporary)
            try Posix.changeMode(fd, mode)
            try sync(fd, temporary)
        } catch {
            // The error is already held: what close or unlink do to errno cannot change it.
            Posix.close(fd)
            try? Posix.unlink(temporary)
            throw error
        }
        Posix.close(fd)
        do throws(SystemError) {
            try Posix.rename(temporary, to: path)
        } catch {
            try? Posix.unlink(temporary)
            throw error
        }
        try syncFolder(folder, sync: sync)
    }

    /// fsync(2) of a folder, so a rename in it survives a crash.
    package static func syncFolder(_ path: String, sync: Sync = Posix.fsync) throws(SystemError) {
        let fd = try Posix.open(path, O_RDONLY | O_DIRECTORY)
        defer { Posix.close(fd) }
        try sync(fd, path)
    }

    /// A file's bytes (at most `limit`), nil when there is none; O_NOFOLLOW, so a link is
    /// refused. `tighten`: a mode looser than 0600 is made 0600 first, on the opened file.
    package static func read(_ path: String, limit: Int, tighten: Bool) throws(SystemError) -> [UInt8]? {
        do throws(SystemError) {
            let fd = try Posix.open(path, O_RDONLY | O_NOFOLLOW)
            defer { Posix.close(fd) }
            let status = try Posix.status(fd)
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw SystemError("open", errno: EISDIR, path: path)
            }
            if tighten, status.st_mode & 0o077 != 0 { try Posix.changeMode(fd, 0o600) }
            // The buffer is the file's size (one byte more shows a file over `limit`), not the
            // limit: files are replaced by rename, never grown in place.
            return try Posix.readAll(fd, limit: min(limit, Int(status.st_size) + 1))
        } catch let error where error.errno == ENOENT {
            return nil
        }
    }
}
