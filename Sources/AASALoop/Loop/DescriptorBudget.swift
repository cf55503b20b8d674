import AASASystem
import Synchronization

/// The share of the descriptor limit (RLIMIT_NOFILE, getrlimit(2)) the loops may fill with
/// connections. Every connection is a descriptor, and so is every folder and file a reload
/// opens: if clients could hold them all, a reload could read nothing and /healthz could not
/// accept. So the serving loops stop accepting `reserve` short of the limit (clients wait in
/// the listen backlog, as at EMFILE, and are accepted when others leave), the admin loop has a
/// small share inside the reserve, and the rest is left to reloads, the file watcher, ACME and
/// the CDN watch (docs/security.md, "Descriptors"). A count rather than a spare descriptor
/// closed on EMFILE: a spare one, released, goes to whichever thread asks first, an accept as
/// likely as a reload.
public final class DescriptorBudget: Sendable {
    public enum Role: Sendable {
        case serving, admin
    }

    /// Descriptors open when the loops were made (listeners, epoll, eventfds, inotify, logs).
    private let base = Atomic<Int>(0)
    let loops: Int
    /// Connections one serving loop, and the admin loop, may hold: one relaxed load per accept.
    private let servingCeiling: Atomic<Int>
    private let adminCeiling: Atomic<Int>

    public init(loops: Int) {
        self.loops = max(1, loops)
        servingCeiling = Atomic(Int.max)
        adminCeiling = Atomic(Int.max)
        refresh()
    }

    /// Counts the descriptors open now as the server's own, once every loop is made and
    /// before any accepts: the lowest free one (open(2) takes the lowest).
    public func measureBase() {
        guard let open = try? Posix.lowestFreeDescriptor() else { return }
        base.store(open, ordering: .relaxed)
        refresh()
    }

    /// Descriptors no serving loop's connection takes: an eighth of the limit, 8 to 256 (a
    /// scan on every core holds about four per core).
    public static func reserve(limit: Int) -> Int { min(256, max(8, limit / 8)) }
    /// The admin loop's connections, taken from the reserve: enough for scrapers and a few
    /// browsers, and bounded, since with `--admin-public` anyone may connect before the token
    /// is asked for.
    public static func adminShare(limit: Int) -> Int { min(64, max(2, limit / 32)) }

    /// Reads the limit again (start-up, each reload, and when accept(2) meets EMFILE or
    /// ENFILE): a limit changed at run time (prlimit(1)) counts from then on.
    public func refresh() {
        guard let limit = try? Posix.descriptorLimit() else { return }
        // At least one connection per loop, whatever the limit: a server that accepts nothing
        // helps no one.
        servingCeiling.store(
            max(1, (limit - base.load(ordering: .relaxed) - Self.reserve(limit: limit)) / loops), ordering: .relaxed)
        adminCeiling.store(Self.adminShare(limit: limit), ordering: .relaxed)
    }

    /// Connections a loop of `role` may hold now.
    package func ceiling(_ role: Role) -> Int {
        switch role {
        case .serving: servingCeiling.load(ordering: .relaxed)
        case .admin: adminCeiling.load(ordering: .relaxed)
        }
    }
}
