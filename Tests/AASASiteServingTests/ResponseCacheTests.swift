import Testing

@testable import AASALoop
@testable import AASASiteServing

@Suite("Whole responses cached per loop")
struct ResponseCacheTests {
    /// What `EventLoop` assembles for a 200 to GET, byte for byte.
    static func assembled(_ variant: PreparedFile.Variant, _ header: ConnectionHeader, _ dates: DateCache) -> [UInt8] {
        ResponseHead.ok + dates.httpDate + ResponseHead.crlf + Array(variant.headers200) + header.line
            + ResponseHead.crlf
            + Array(variant.body)
    }

    @Test("a borrowed response survives the next file taking its slot")
    func collisions() throws {
        let dates = DateCache()
        dates.refresh()
        // 600 files over 64 slots: some land in the first one's slot (all miss it with a
        // chance of (63/64)^599, about 1 in 12,000).
        let files = (0..<600).map { index in
            PreparedFile(
                body: Array(#"{"applinks": {"details": [], "n": \#(index)}}"#.utf8), lastModified: 1_700_000_000,
                cacheControl: "max-age=3600", contentType: "application/json")
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
        let dates = DateCache()
        dates.refresh()
        let cache = ResponseCache()
        let output = OutputBuffer()
        let file = PreparedFile(
            body: Array("{}".utf8), lastModified: 0, cacheControl: "no-cache", contentType: "application/json")
        let response = try #require(cache.response(file.identity, .none, dates: dates, output: output))
        output.borrow(response)
        #expect(output.bytes.baseAddress == response.baseAddress)
        let again = try #require(cache.response(file.identity, .none, dates: dates, output: output))
        #expect(again.baseAddress == response.baseAddress)
        let large = PreparedFile(
            body: Array(repeating: UInt8(ascii: " "), count: ResponseCache.largestResponse), lastModified: 0,
            cacheControl: "no-cache", contentType: "application/json")
        #expect(cache.response(large.identity, .none, dates: dates, output: output) == nil)
        cache.removeAll()
        output.removeAll()
        #expect(output.isEmpty)
    }

    @Test("a borrowed body stays in its file until something follows it, then is copied in order")
    func borrowedBody() throws {
        let file = PreparedFile(
            body: Array(repeating: UInt8(ascii: "x"), count: 20_000), lastModified: 0, cacheControl: "",
            contentType: "application/json")
        let output = OutputBuffer()
        output.append(Array("head1".utf8))
        file.identity.body.withUnsafeBytes { output.borrow($0, of: file) }
        #expect(output.bytes.count == 5)
        #expect(output.tail.count == 20_000)
        #expect(output.byteCount == 20_005)
        output.append(Array("head2".utf8))
        #expect(output.tail.bytes == nil)
        let all = Array(output.bytes)
        #expect(all.count == 20_010)
        #expect(all.prefix(5) == Array("head1".utf8)[...])
        #expect(all.suffix(5) == Array("head2".utf8)[...])
        output.removeAll()
        #expect(output.isEmpty)
    }
}
