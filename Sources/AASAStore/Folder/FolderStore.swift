import AASASystem
import CSystemShims
import Foundation
@preconcurrency import Glibc

/// The folder engine: each key a file under `folder` (the certificates folder's `acme/` by
/// default, or a shared volume), kept with the care of `FolderFiles`: the folder and every
/// folder in it 0700 and this user's, private keys 0600 (other files 0644, inside the 0700
/// folders), files written whole and synced, links never followed, locks as flock(2) on
/// `.lock-NAME` files. Hidden names (staging folders, temporary files, locks) are never keys.
public final class FolderStore: SharedStore {
    public let folder: String
    public let health = StoreHealth()

    /// Larger than anything the server stores (a certificate chain is a few kilobytes): a
    /// larger file is refused rather than read whole.
    public static let valueLimit = 16 * 1024 * 1024

    public init(folder: String) {
        self.folder = folder
    }

    public var summary: String { "folder \(folder)" }

    /// The file of `key`.
    public func path(_ key: StoreKey) -> String { folder + "/" + key.text }

    /// Makes the store's folder (and those above it) or, when it exists, enforces its mode.
    public func prepare() throws(StoreError) {
        do {
            let parent = (folder as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io("cannot make \(folder): \(error)")
        }
        do throws(SystemError) {
            try FolderFiles.makeFolderIfMissing(folder)
        } catch {
            throw StoreError.io("cannot make \(folder): \(error)")
        }
        try FolderFiles.enforcePrivate(folder)
    }

    /// The folders of `key` below the store's folder, made 0700 when missing and held to it.
    public func prepareFolders(of key: StoreKey) throws(StoreError) {
        try prepare()
        var path = folder
        for component in key.components.dropLast() {
            path += "/" + component
            do throws(SystemError) {
                try FolderFiles.makeFolderIfMissing(path)
            } catch {
                throw StoreError.io("cannot make \(path): \(error)")
            }
            try FolderFiles.enforcePrivate(path)
        }
    }

    public func load(_ key: StoreKey) throws(StoreError) -> [UInt8]? {
        try counting(.load) { () throws(StoreError) in
            let path = path(key)
            let read: [UInt8]?
            do throws(SystemError) {
                read = try FolderFiles.read(path, limit: Self.valueLimit + 1, tighten: key.isPrivate)
            } catch let error where error.errno == ENOTDIR {
                return nil
            } catch {
                throw StoreError.io("\(path): \(error)")
            }
            guard let bytes = read else { return nil }
            guard bytes.count <= Self.valueLimit else {
                throw StoreError.refused("\(path) is larger than \(Self.valueLimit) bytes")
            }
            return bytes
        }
    }

    public func store(_ key: StoreKey, _ value: [UInt8]) throws(StoreError) {
        try counting(.store) { () throws(StoreError) in
            let path = path(key)
            // Twice: a folder removed by hand between making it and writing into it is made again.
            for attempt in 1...2 {
                try prepareFolders(of: key)
                do throws(SystemError) {
                    try FolderFiles.writeAtomically(value, to: path, mode: key.isPrivate ? 0o600 : 0o644)
                    return
                } catch {
                    if error.errno == ENOENT && attempt == 1 { continue }
                    throw StoreError.io("cannot write \(path): \(error)")
                }
            }
        }
    }

    public func delete(_ key: StoreKey) throws(StoreError) {
        try counting(.delete) { () throws(StoreError) in
            let path = path(key)
            do throws(SystemError) {
                try Posix.unlink(path)
            } catch let error where error.errno == ENOENT || error.errno == ENOTDIR {
                return
            } catch {
                throw StoreError.io("cannot delete \(path): \(error)")
            }
            // An emptied folder stays: removing it could pull it from under another replica
            // writing into it (between its mkdir(2) and its open(2)).
        }
    }

    public func stat(_ key: StoreKey) throws(StoreError) -> StoreEntryInfo? {
        try counting(.stat) { () throws(StoreError) in
            let path = path(key)
            do throws(SystemError) {
                let status = try Posix.status(path, followingLinks: false)
                guard status.st_mode & S_IFMT == S_IFREG else { return nil }
                let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
                return StoreEntryInfo(size: Int(status.st_size), modified: modified)
            } catch let error where error.errno == ENOENT || error.errno == ENOTDIR {
                return nil
            } catch {
                throw StoreError.io("\(path): \(error)")
            }
        }
    }

    public func list(prefix: String) throws(StoreError) -> [StoreKey] {
        try counting(.list) { () throws(StoreError) in
            // Only the folder the prefix's complete components name is walked.
            let base = prefix.lastIndex(of: "/").map { String(prefix[..<$0]) } ?? ""
            if !base.isEmpty, StoreKey(base) == nil { return [] }
            var keys: [StoreKey] = []
            try collect(base, into: &keys, prefix: prefix)
            return keys.sorted()
        }
    }

    /// The regular files below `relative` (hidden names, links and other types skipped).
    private func collect(_ relative: String, into keys: inout [StoreKey], prefix: String) throws(StoreError) {
        let path = relative.isEmpty ? folder : folder + "/" + relative
        let entries: [FolderEntry]
        do throws(SystemError) {
            entries = try Posix.entries(atPath: path)
        } catch let error where error.errno == ENOENT || error.errno == ENOTDIR {
            return
        } catch {
            throw StoreError.io("cannot list \(path): \(error)")
        }
        for entry in entries where !entry.name.hasPrefix(".") {
            let text = relative.isEmpty ? entry.name : relative + "/" + entry.name
            guard let key = StoreKey(text) else { continue }
            var type = entry.type
            if type == DT_UNKNOWN {
                // Some file systems do not say (readdir(3)): lstat(2) does.
                let mode = (try? Posix.status(folder + "/" + text, followingLinks: false))?.st_mode ?? 0
                type = mode & S_IFMT == S_IFDIR ? UInt8(DT_DIR) : mode & S_IFMT == S_IFREG ? UInt8(DT_REG) : 0
            }
            if type == DT_DIR {
                // A folder whose name cannot begin a matching key is not entered.
                if text.hasPrefix(prefix) || prefix.hasPrefix(text + "/") {
                    try collect(text, into: &keys, prefix: prefix)
                }
            } else if type == DT_REG, text.hasPrefix(prefix) {
                keys.append(key)
            }
        }
    }

    public func tryLock(_ name: String) throws(StoreError) -> StoreLock? {
        try counting(.lock) { () throws(StoreError) in
            guard StoreKey.isValidLockName(name) else {
                throw StoreError.refused("lock name \"\(name)\" is not allowed")
            }
            try prepare()
            // O_NOFOLLOW: a link planted under the lock's name is refused, never opened. The
            // descriptor is the lock: closing it releases it, and so does the holder's death.
            let path = folder + "/.lock-" + name
            do throws(SystemError) {
                let fd = try Posix.open(path, O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o600)
                guard try Posix.tryLockExclusive(fd) else {
                    Posix.close(fd)
                    return nil
                }
                return StoreLock(name: name) { Posix.close(fd) }
            } catch {
                throw StoreError.io("cannot lock \(path): \(error)")
            }
        }
    }

    public func unlock(_ lock: StoreLock) {
        lock.releaseHold()
    }

    /// A flock(2) lasts as long as its descriptor.
    public func holds(_ lock: StoreLock) -> Bool {
        lock.stillHeld()
    }

    /// The file watcher sees the folder's certificates change, and ACME watches its challenge
    /// folders itself (`FolderChallengeWatch`); nothing here calls `handler`.
    public func observeChanges(_ handler: @escaping @Sendable (StoreKey) -> Void) {}

    public func close() {}

    /// Runs `body`, counting a failure against `operation`.
    func counting<Result>(
        _ operation: StoreOperation, _ body: () throws(StoreError) -> Result
    ) throws(StoreError) -> Result {
        do {
            let result = try body()
            health.recordUp(true)
            return result
        } catch {
            health.recordError(operation)
            throw error
        }
    }
}
