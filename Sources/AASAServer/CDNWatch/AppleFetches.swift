import Foundation
import Logging
import Synchronization

/// What Apple's fetcher itself fetched (README, "Apple's CDN"): every request whose
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
    }

    struct Books {
        var last: [String: Fetch] = [:]
        /// Wildcard site → host → when last asked.
        var hosts: [String: [String: Int]] = [:]
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

    init(logger: Logger?) {
        self.logger = logger
    }

    /// One fetch: `site` is the folder that answered (nil: no site serves `host`).
    func record(site: String?, host: String, status: Int, etag: String?, now: Int) {
        let warn = books.withLock { books -> Bool in
            books.byStatus[status, default: 0] += 1
            guard let site else {
                books.unknownHosts += 1
                guard books.warned.count < Self.hostLimit else { return false }
                return books.warned.insert(host).inserted
            }
            books.last[site] = Fetch(at: now, host: host, status: status, etag: etag)
            if site.hasPrefix("*.") {
                var hosts = books.hosts[site, default: [:]]
                hosts[host] = now
                if hosts.count > Self.hostLimit, let oldest = hosts.min(by: { $0.value < $1.value }) {
                    hosts[oldest.key] = nil
                }
                books.hosts[site] = hosts
            }
            return false
        }
        if warn {
            logger?.warning(
                "\(Self.unknownHostMessage)",
                metadata: ["host": "\(host)", "status": "\(status)"])
        }
    }

    public func last(site: String) -> Fetch? {
        books.withLock { $0.last[site] }
    }

    /// The hosts Apple's fetcher asked a wildcard site for, newest first.
    public func hosts(site: String) -> [String] {
        books.withLock { ($0.hosts[site] ?? [:]).sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key) }
    }

    /// `aasa_apple_fetches_total{status}` and the fetches for unknown hosts.
    public func counts() -> (byStatus: [Int: Int], unknownHosts: Int) {
        books.withLock { ($0.byStatus, $0.unknownHosts) }
    }
}
