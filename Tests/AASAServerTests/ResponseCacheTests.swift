import Testing

@testable import AASAServer

@Suite("Whole responses cached per loop")
struct ResponseCacheTests {
    /// What `EventLoop` assembles for a 200 to GET, byte for byte.
    static func assembled(_ variant: PreparedFile.Variant, _ header: ConnectionHeader, _ dates: DateCache) -> [UInt8] {
        EventLoop.ok + dates.httpDate + EventLoop.crlf + Array(variant.headers200) + header.line + EventLoop.crlf
            + Array(variant.body)
    }

    @Test("a borrowed response survives the next file taking its slot")
    func collisions() throws {
        var dates = DateCache()
        dates.refresh()
        // 600 files over 64 slots: some land in the first one's slot (all miss it with a
        // chance of (63/64)^599, about 1 in 12,000).
        let files = (0..<600).map { index in
            PreparedFile(
                body: Array(#"{"applinks": {"details": [], "n": \#(index)}}"#.utf8), lastModified: 1_700_000_000,
                cacheControl: "max-age=3600")
        }
        let cache = ResponseCache()
        let output = OutputBuffer()
        let first = Self.assembled(files[0].identity, .none, dates)
        for (index, file) in files.enumerated().dropFirst() {
            output.removeAll()
            output.borrow(try #require(cache.response(files[0].identity, .none, dates: dates, output: output)))
            let header = [ConnectionHeader.none, .keepAlive, .close][index % 3]
            let response = try #require(cache.response(file.identity, header, dates: dates, output: output))
            let expected = Self.assembled(file.identity, header, dates)
            #expect(Array(response) == expected)
            output.borrow(response)
            // Compared as a Bool: a failure would print kilobytes of bytes.
            let whole = Array(output.bytes) == first + expected
            #expect(whole, "file \(index)")
        }
    }

    @Test("a lone response is borrowed, not copied; a file over the size limit is not cached")
    func borrowing() throws {
        var dates = DateCache()
        dates.refresh()
        let cache = ResponseCache()
        let output = OutputBuffer()
        let file = PreparedFile(body: Array("{}".utf8), lastModified: 0, cacheControl: "no-cache")
        let response = try #require(cache.response(file.identity, .none, dates: dates, output: output))
        output.borrow(response)
        #expect(output.bytes.baseAddress == response.baseAddress)
        let again = try #require(cache.response(file.identity, .none, dates: dates, output: output))
        #expect(again.baseAddress == response.baseAddress)
        let large = PreparedFile(
            body: Array(repeating: UInt8(ascii: " "), count: ResponseCache.largestResponse), lastModified: 0,
            cacheControl: "no-cache")
        #expect(cache.response(large.identity, .none, dates: dates, output: output) == nil)
        cache.removeAll()
        output.removeAll()
        #expect(output.isEmpty)
    }
}
