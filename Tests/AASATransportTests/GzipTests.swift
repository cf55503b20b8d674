import Testing

@testable import AASATransport

/// gzip (RFC 1952) through system zlib: what is compressed inflates to the same bytes, and
/// inflating stops at the caller's limit.
@Suite("gzip")
struct GzipTests {
    /// Bytes that do not repeat: a linear congruential sequence (deterministic, so a failure
    /// reproduces).
    static func noise(_ count: Int) -> [UInt8] {
        var state: UInt32 = 12_345
        return (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12_345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
    }

    @Test(
        "round trip at every size class and level",
        arguments: [
            [UInt8](), Array("{}".utf8), Array(String(repeating: #"{"applinks": {}} "#, count: 400).utf8),
            noise(1000), noise(70_000), [UInt8](repeating: 0x20, count: 300_000),
        ], [1, 6, 9] as [Int32])
    func roundTrip(_ input: [UInt8], _ level: Int32) throws {
        let compressed = try Gzip.compress(input, level: level)
        #expect(compressed.starts(with: [0x1F, 0x8B]), "the gzip magic (RFC 1952 §2.3.1)")
        #expect(try Gzip.decompress(compressed, limit: input.count) == input)
    }

    @Test("inflating past the limit is a failure that says so, whatever the ratio")
    func limit() throws {
        let bomb = try Gzip.compress([UInt8](repeating: 0, count: 1_000_000))
        #expect(bomb.count < 2_000)
        #expect {
            try Gzip.decompress(bomb, limit: 64 * 1024)
        } throws: { error in
            (error as? Gzip.Failure)?.limit == 64 * 1024
        }
    }

    @Test(
        "bytes that are not gzip, or are cut short, are failures",
        arguments: [[UInt8](), [0x1F, 0x8B], Array("{}".utf8), noise(100)])
    func notGzip(_ input: [UInt8]) {
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(input, limit: 1024) }
    }

    @Test("a stream cut anywhere is a failure, never a shorter body")
    func truncated() throws {
        let input = Array(String(repeating: "association ", count: 200).utf8)
        let compressed = try Gzip.compress(input)
        for length in stride(from: 0, to: compressed.count, by: 7) {
            #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Array(compressed[..<length]), limit: 1 << 20) }
        }
    }
}
