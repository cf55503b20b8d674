import AASALoop
import Foundation
import Logging
import Synchronization

/// What Apple's fetcher itself fetched (docs/watches.md, "Apple's CDN"): every request whose
/// User-Agent contains `--apple-fetcher-agent`, recorded by the loops (rare, so a lock is
/// fine): per site the last fetch, for a wildcard site the hosts asked (the last 1,000),
/// counts by status, and fetches for hosts no site serves (the app lists a domain pointed here
/// that has no site folder), each counted and warned about at most once a minute, the warning
/// saying how many went unsaid since the last one: anyone can send Apple's User-Agent with
/// made-up hosts, and neither a flood of lines nor a warning silenced for good may come of it.
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
        /// When the last warning about an unknown host was logged (seconds since the epoch).
        var lastWarning: Int?
        /// Fetches for unknown hosts since then, not warned about.
        var unwarned = 0
    }

    static let unknownHostMessage =
        "apple fetcher asked for a host no site serves: an app lists a domain pointed here without a site folder"

    /// Hosts kept per wildcard site, at most.
    static let hostLimit = 1000
    /// Seconds between two warnings about unknown hosts, at least.
    static let warningInterval = 60

    private let books = Mutex(Books())
    let logger: Logger?

    package init(logger: Logger?) {
        self.logger = logger
    }

    /// One fetch: `site` is the folder that answered (nil: no site serves `host`).
    func record(site: String?, host: String, status: Int, etag: String?, verified: Bool = false, now: Int) {
        // The fetches not warned about before this one, when this one is warned about.
        let warnAfter = books.withLock { books -> Int? in
            books.byStatus[status, default: 0] += 1
            guard let site else {
                books.unknownHosts += 1
                if let last = books.lastWarning, now >= last, now - last < Self.warningInterval {
                    books.unwarned += 1
                    return nil
                }
                defer { (books.lastWarning, books.unwarned) = (now, 0) }
                return books.unwarned
            }
            books.last[site] = Fetch(at: now, host: host, status: status, etag: etag, verified: verified)
            if site.hasPrefix("*.") {
                // In place: no copy of the site's hosts.
                books.hosts[site, default: RecentHosts(limit: Self.hostLimit)].note(host, at: now)
            }
            return nil
        }
        if let unwarned = warnAfter {
            var metadata: Logger.Metadata = ["host": .string(host), "status": .stringConvertible(status)]
            if unwarned > 0 { metadata["not_logged_since_last"] = .stringConvertible(unwarned) }
            logger?.warning("\(Self.unknownHostMessage)", metadata: metadata)
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
