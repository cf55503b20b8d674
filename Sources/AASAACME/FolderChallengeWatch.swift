import AASAStore
import AASASystem
import AASATransport
@preconcurrency import Glibc

/// The change notices of a folder store's challenges (inotify(7) on `challenges/http-01/`,
/// `challenges/tls-alpn-01/` and the pre-flight's `preflight/`), as PostgreSQL's LISTEN/NOTIFY gives them for its store: another
/// replica writing or removing a challenge there is seen within the board's next poll, and the
/// board reads it ahead of the CA's check. Read without blocking by the board's own thread
/// (`ChallengeBoard`), so it needs no thread of its own. Replicas on other hosts writing to a
/// shared volume (NFS) are not seen by inotify; their challenges are looked up when checked.
final class FolderChallengeWatch: Sendable {
    private let fd: Int32
    /// Watch descriptors and the key prefix of their folder.
    private let prefixes: [Int32: String]

    static let folders = ["challenges/http-01", "challenges/tls-alpn-01", "preflight"]

    private init(fd: Int32, prefixes: [Int32: String]) {
        self.fd = fd
        self.prefixes = prefixes
    }

    /// The watch, or why the folders cannot be made or watched (the lookups still find the
    /// challenges then).
    static func make(store: FolderStore) -> Result<FolderChallengeWatch, SystemError> {
        let fd: Int32
        do throws(SystemError) {
            fd = try Posix.inotify()
        } catch {
            return .failure(error)
        }
        var made: [Int32: String] = [:]
        for folder in folders {
            // Made here when missing, so a replica that starts first sees the first challenge.
            if let key = StoreKey(folder + "/x") { try? store.prepareFolders(of: key) }
            do throws(SystemError) {
                let watch = try Posix.addWatch(
                    fd, store.folder + "/" + folder,
                    mask: UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ONLYDIR))
                made[watch] = folder + "/"
            } catch {
                Posix.close(fd)
                return .failure(error)
            }
        }
        return .success(FolderChallengeWatch(fd: fd, prefixes: made))
    }

    deinit {
        Posix.close(fd)
    }

    /// The keys written or removed since the last call (hidden names, a write's temporary
    /// files, left out); `overflowed` when the kernel dropped events.
    func changes() -> (keys: [(StoreKey, removed: Bool)], overflowed: Bool) {
        var keys: [(StoreKey, removed: Bool)] = []
        var overflowed = false
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let result = buffer.withUnsafeMutableBytes { try? Posix.read(fd, into: $0) }
            guard case .processed(let count)? = result, count > 0 else { break }
            buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    offset = nameStart + Int(event.len)
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true }
                    guard event.len > 0, let prefix = prefixes[event.wd] else { continue }
                    let name = String(
                        decoding: raw[nameStart..<min(offset, count)].prefix { $0 != 0 }, as: UTF8.self)
                    let removed = event.mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0
                    if !name.hasPrefix("."), let key = StoreKey(prefix + name) { keys.append((key, removed)) }
                }
            }
        }
        return (keys, overflowed)
    }
}
