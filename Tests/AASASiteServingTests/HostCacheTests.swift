import AASALoop
import AASASites
import AssociationKit
import Testing

@testable import AASASiteServing

@Suite("Sites remembered per Host value")
struct HostCacheTests {
    static func table(_ names: [String]) -> SiteTable {
        var map = SiteMap<SiteContent>()
        for name in names {
            map.insert(
                SiteContent(name: name, files: [:], folderFiles: [:], changePassword: nil, fallback: nil), named: name)
        }
        return SiteTable(map)
    }

    static func lookup(_ cache: HostCache, _ host: String, _ table: SiteTable) -> SiteContent?? {
        let bytes = Array(host.utf8)
        return bytes.withUnsafeBufferPointer { cache.site($0, 0..<bytes.count, in: table) }
    }

    @Test("the same answers as the map for every kind of host, asked once and again")
    func sameAnswers() {
        // Many more sites than slots (of equal lengths), so slots are taken over too.
        let many = (0..<600).map { "site\($0 + 100).example.org" }
        let table = Self.table(["example.com", "*.staging.example.com"] + many)
        let cache = HostCache()
        let hosts = [
            "example.com", "EXAMPLE.com", "example.com.", "example.com:8080", "a.staging.example.com",
            "staging.example.com", "unknown.test", "bad host", "a..b", "", String(repeating: "a", count: 70) + ".com",
        ]
        for _ in 0..<2 {
            for host in hosts + many {
                let expected = Array(host.utf8).withUnsafeBufferPointer { bytes in
                    HostName.withKey(bytes, 0..<bytes.count) { table.site(forHost: $0) }
                }
                let found = Self.lookup(cache, host, table)
                #expect((found == nil) == (expected == nil), "\(host)")
                #expect(found??.name == expected??.name, "\(host)")
            }
        }
    }

    @Test("a new snapshot's sites replace what was remembered")
    func snapshotChange() {
        let cache = HostCache()
        let before = Self.table(["example.com"])
        #expect(Self.lookup(cache, "new.test", before)! == nil)
        let after = Self.table(["example.com", "new.test"])
        cache.removeAll()
        #expect(Self.lookup(cache, "new.test", after)??.name == "new.test")
    }
}

@Suite("hosts Apple's fetcher asked a wildcard site for")
struct RecentHostsTests {
    @Test("the last `limit` hosts are kept, newest first, however often each is asked")
    func keepsTheLast() {
        var recent = RecentHosts(limit: 3)
        for (time, host) in ["a", "b", "c", "a", "d", "a", "e"].enumerated() { recent.note(host, at: time) }
        #expect(recent.newestFirst == ["e", "a", "d"])
        // Many repeats of one host neither grow the order without bound nor evict others.
        for time in 10..<10_000 { recent.note("a", at: time) }
        #expect(recent.newestFirst == ["a", "e", "d"])
        for time in 10_000..<20_000 { recent.note("h\(time)", at: time) }
        #expect(recent.newestFirst == ["h19999", "h19998", "h19997"])
    }
}
