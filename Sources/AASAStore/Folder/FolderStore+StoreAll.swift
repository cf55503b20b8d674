import AASASystem
import CSystemShims
import Foundation
@preconcurrency import Glibc

extension FolderStore {
    /// All or none: the entries' folder (one folder below the store's, such as a
    /// certificate's `NAME/`) is built whole under a hidden staging name made by mkdir(2)
    /// (unpredictable, never reusing what is there): the folder's other files hard-linked in,
    /// each new file written and synced; then swapped into place with one renameat2(2)
    /// RENAME_EXCHANGE (or rename(2) when there was none) and the parent synced. A reader sees
    /// the old folder or the new one, never half of a pair; a failure leaves the old one and no
    /// staging folder. Entries in several folders, at the store's top, or in a folder that has
    /// folders of its own are refused: no single rename covers them.
    public func storeAll(_ entries: [(StoreKey, [UInt8])]) throws(StoreError) {
        try storeAll(entries, sync: Posix.fsync)
    }

    /// `storeAll` with `sync` in place of fsync(2) (a test's failing one).
    package func storeAll(_ entries: [(StoreKey, [UInt8])], sync: FolderFiles.Sync) throws(StoreError) {
        guard let first = entries.first else { return }
        try counting(.storeAll) { () throws(StoreError) in
            let components = first.0.components
            let relative = components.dropLast().joined(separator: "/")
            guard !relative.isEmpty,
                entries.allSatisfy({ $0.0.components.dropLast().joined(separator: "/") == relative })
            else {
                throw StoreError.refused("storeAll in a folder store takes keys of one folder below the store's")
            }
            guard let folderKey = StoreKey(relative) else {
                throw StoreError.refused("storeAll: \(relative) is not a key")
            }
            try prepareFolders(of: folderKey)
            let target = folder + "/" + relative
            let parent = (target as NSString).deletingLastPathComponent
            let staging = parent + "/.new-\((target as NSString).lastPathComponent)-\(FolderFiles.randomSuffix())"
            do {
                try Posix.makeFolder(staging, mode: 0o700)
                let replaced = Set(entries.map { String($0.0.lastComponent) })
                try linkOthers(from: target, to: staging, except: replaced)
                for (key, value) in entries {
                    try FolderFiles.writeAtomically(
                        value, to: staging + "/" + key.lastComponent, mode: key.isPrivate ? 0o600 : 0o644, sync: sync)
                }
                if (try? Posix.status(target, followingLinks: false)) != nil {
                    // renameat2(2) RENAME_EXCHANGE: the new folder and the old swap atomically.
                    try Posix.exchange(staging, with: target)
                    // The old folder, now under the staging name: left behind it is only clutter.
                    try? FileManager.default.removeItem(atPath: staging)
                } else {
                    try Posix.rename(staging, to: target)
                }
                try FolderFiles.syncFolder(parent, sync: sync)
            } catch let error as StoreError {
                try? FileManager.default.removeItem(atPath: staging)
                throw error
            } catch {
                try? FileManager.default.removeItem(atPath: staging)
                throw StoreError.io("cannot store \(target): \(error)")
            }
        }
    }

    /// Hard links (link(2), which never follows a link) of the files of `target` that the
    /// entries do not replace, so `storeAll` keeps them; a sub-folder is refused.
    private func linkOthers(from target: String, to staging: String, except replaced: Set<String>) throws(StoreError) {
        let entries: [FolderEntry]
        do throws(SystemError) {
            entries = try Posix.entries(atPath: target)
        } catch {
            if error.errno == ENOENT { return }
            throw StoreError.io("cannot list \(target): \(error)")
        }
        for entry in entries where !entry.name.hasPrefix(".") && !replaced.contains(entry.name) {
            let source = target + "/" + entry.name
            var isFolder = false
            do throws(SystemError) {
                isFolder = try Posix.status(source, followingLinks: false).st_mode & S_IFMT == S_IFDIR
                if !isFolder {
                    try Posix.hardLink(source, to: staging + "/" + entry.name)
                }
            } catch {
                throw StoreError.io("cannot keep \(source): \(error)")
            }
            if isFolder { throw StoreError.refused("storeAll: \(target) has a folder of its own (\(entry.name))") }
        }
    }
}
