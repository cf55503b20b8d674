import Foundation
import Logging
import Synchronization

/// What Apple's fetcher itself fetched (docs/usage.md, "Apple's CDN"): every request whose
/// User-Agent contains `--apple-fetcher-agent`, recorded by the loops (rare, so a lock is
/// fine): per site the last fetch, for a wildcard site the hosts asked (the last 1,000),
/// counts by status, and fetches for hosts no site serves, which are warned about once per
/// host (the app lists a domain pointed here that has no site folder).
public final class AppleFetches: Sendable {
    public struct Fetch: Sendable, Equatable {
        /// Seconds since the epoch.
        public let at: Int
        public let host: String
        public let status: Int
        public let etag: String?
        /// From a network configured as Apple's (`appleFetcherNetworks`); otherwise only a
        /// client that identified as Apple's fetcher.
        public var verified = false
    }

    struct Books {
        var last: [String: Fetch] = [:]
        /// Wildcard site → the hosts last asked.
        var hosts: [String: RecentHosts] = [:]
        var byStatus: [Int: Int] = [:]
        var unknownHosts = 0
        var warned: Set<String> = []
    }

    static let unknownHostMessage =
        "apple fetcher asked for a host no site serves: an app lists a domain pointed here without a site folder"

    /// Hosts kept per wildcard site, and unknown hosts warned about, at most.
    static let hostLimit = 1000

    private let books = Mutex(Books())
    let logger: Logger?

    package init(logger: Logger?) {
        self.logger = logger
    }

    /// One fetch: `site` is the folder that answered (nil: no site serves `host`).
    func record(site: String?, host: String, status: Int, etag: String?, verified: Bool = false, now: Int) {
        let warn = books.withLock { books -> Bool in
            books.byStatus[status, default: 0] += 1
            guard let site else {
                books.unknownHosts += 1
                guard books.warned.count < Self.hostLimit else { return false }
                return books.warned.insert(host).inserted
            }
            books.last[site] = Fetch(at: now, host: host, status: status, etag: etag, verified: verified)
            if site.hasPrefix("*.") {
                // In place: no copy of the site's hosts.
                books.hosts[site, default: RecentHosts(limit: Self.hostLimit)].note(host, at: now)
            }
            return false
        }
        if warn {
            logger?.warning(
                "\(Self.unknownHostMessage)",
                metadata: ["host": .string(host), "status": .stringConvertible(status)])
        }
    }

    public func last(site: String) -> Fetch? {
        books.withLock { $0.last[site] }
    }

    /// The hosts Apple's fetcher asked a wildcard site for, newest first.
    public func hosts(site: String) -> [String] {
        books.withLock { $0.hosts[site]?.newestFirst ?? [] }
    }

    /// `aasa_apple_fetches_total{status}` and the fetches for unknown hosts.
    public func counts() -> (byStatus: [Int: Int], unknownHosts: Int) {
        books.withLock { ($0.byStatus, $0.unknownHosts) }
    }
}
