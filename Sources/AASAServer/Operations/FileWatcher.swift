import AASATransport
import CSystemShims
import Foundation
@preconcurrency import Glibc
import Synchronization

/// Watches the sites and certificates folders with inotify(7) and calls back once changes
/// have been quiet for a moment (an editor's save, a `kubectl apply` or a certbot renewal
/// touches several files). Covers files written in place, atomic renames, and symbolic-link
/// swaps such as Kubernetes ConfigMap updates (`..data` is renamed in the watched folder).
/// Folders are watched again after every change, so new site folders are seen too.
final class FileWatcher: Sendable {
    let paths: [String]
    let onChange: @Sendable () -> Void
    let quietPeriod: UInt64 = 300_000_000
    private let stopping = Atomic<Bool>(false)

    init(paths: [String], onChange: @escaping @Sendable () -> Void) {
        self.paths = paths
        self.onChange = onChange
    }

    func stop() {
        stopping.store(true, ordering: .releasing)
    }

    func run() {
        let fd = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard fd >= 0 else { return }
        defer { Glibc.close(fd) }
        watchAll(fd)
        var changedAt: UInt64?
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !stopping.load(ordering: .acquiring) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) > 0 && readChanges(fd, &buffer) {
                changedAt = MonotonicClock.now()
            }
            if let at = changedAt, MonotonicClock.now() &- at >= quietPeriod {
                changedAt = nil
                onChange()
                // New folders (a new site) get watches too; existing ones keep theirs.
                watchAll(fd)
            }
        }
    }

    /// Reads every queued event; true if one is a change (a watch going away, IN_IGNORED,
    /// is not).
    private func readChanges(_ fd: Int32, _ buffer: inout [UInt8]) -> Bool {
        var changed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return changed }
            var offset = 0
            buffer.withUnsafeBytes { raw in
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    if event.mask & UInt32(IN_IGNORED) == 0 { changed = true }
                    offset += MemoryLayout<inotify_event>.size + Int(event.len)
                }
            }
        }
    }

    private func watchAll(_ fd: Int32) {
        // Not IN_ATTRIB: reading a file after a change updates its access time, and the
        // reload's own reads would trigger another reload.
        let mask = UInt32(
            IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF
                | IN_MOVE_SELF)
        var folders: Set<String> = []
        for path in paths {
            let root = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            folders.insert(root)
            folders.insert(path)
            guard let entries = FileManager.default.enumerator(atPath: root) else { continue }
            for case let entry as String in entries {
                let full = (root as NSString).appendingPathComponent(entry)
                // Symbolic links are followed to their folders (aliases, ConfigMap `..data`).
                let resolved = URL(fileURLWithPath: full).resolvingSymlinksInPath().path
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory.boolValue {
                    folders.insert(resolved)
                }
            }
        }
        for folder in folders { inotify_add_watch(fd, folder, mask) }
    }
}
