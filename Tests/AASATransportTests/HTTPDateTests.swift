import AASASystem
import Testing

@testable import AASATransport

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate out; IMF-fixdate, RFC 850 and asctime in.
@Suite("HTTP dates")
struct HTTPDateTests {
    @Test(
        "IMF-fixdate and ISO 8601 out, and IMF-fixdate read back to the same second",
        arguments: [
            (0, "Thu, 01 Jan 1970 00:00:00 GMT", "1970-01-01T00:00:00Z"),
            (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37Z"),
            (951_825_600, "Tue, 29 Feb 2000 12:00:00 GMT", "2000-02-29T12:00:00Z"),
            (2_147_483_648, "Tue, 19 Jan 2038 03:14:08 GMT", "2038-01-19T03:14:08Z"),
            (4_102_444_799, "Thu, 31 Dec 2099 23:59:59 GMT", "2099-12-31T23:59:59Z"),
        ])
    func format(_ seconds: Int, _ imf: String, _ iso: String) {
        #expect(HTTPDate.format(seconds) == imf)
        #expect(HTTPDate.format(seconds).utf8.count == 29)
        #expect(HTTPDate.iso8601(seconds) == iso)
        #expect(HTTPDate.parse(imf) == seconds)
    }

    @Test(
        "all three formats in",
        arguments: [
            ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777), ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
            ("Sun Nov  6 08:49:37 1994", 784_111_777), ("Tue, 29 Feb 2000 12:00:00 GMT", 951_825_600),
            ("yesterday", nil),
        ] as [(String, Int?)])
    func parse(_ text: String, _ seconds: Int?) {
        #expect(HTTPDate.parse(text) == seconds)
    }

    @Test(
        "dates with out-of-range or malformed numbers are invalid, never a trap",
        arguments: [
            "Sun Nov  6 08:49:37 9888888888", "Sun, 06 Nov 9888888888 08:49:37 GMT",
            "Sunday, 06-Nov-9888888888 08:49:37 GMT",
            "Sun, 06 Nov -9223372036854775808 08:49:37 GMT", "Sun, 99999999999999999999 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 99999999999999999999:49:37 GMT", "Sun, 06 Nov 1994 08:49:-37 GMT",
            "Sun, +6 Nov 1994 08:49:37 GMT",
            "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49:37 GMT trailing",
            "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Xyz 1994 08:49:37 GMT", "Sun Nov  6 08:49:37", "", ",", "Sun, ",
        ])
    func hostile(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
