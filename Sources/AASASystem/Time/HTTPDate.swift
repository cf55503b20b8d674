#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate out, and all three formats in.
package enum HTTPDate {
    package static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    package static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, always 29 bytes.
    package static func format(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// `2026-11-22T10:05:03Z`, for logs.
    package static func iso8601(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    private static func two(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Seconds since the epoch, from IMF-fixdate, RFC 850 or asctime form; nil if invalid
    /// (an invalid If-Modified-Since is ignored, RFC 9110 §13.1.3).
    package static func parse(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// The same, read from the request's bytes. Every number has the fixed digit count of
    /// RFC 9110 §5.6.7's grammar (a year has 4 digits, or 2 in RFC 850 form), so no value
    /// from a peer can overflow the arithmetic below.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var reader = DateReader(bytes: bytes)
        reader.skipLetters()  // the day name, long in RFC 850 form; not checked against the date
        let date: (day: Int, month: Int, year: Int, clock: (Int, Int, Int))
        if reader.take(UInt8(ascii: ",")) {
            guard reader.take(0x20), let day = reader.digits(1...2) else { return nil }
            if reader.take(0x20) {  // Sun, 06 Nov 1994 08:49:37 GMT
                guard let month = reader.month(), reader.take(0x20), let year = reader.digits(4...4), reader.take(0x20),
                    let clock = reader.clock(), reader.take(0x20), reader.takeGMT()
                else { return nil }
                date = (day, month, year, clock)
            } else {  // Sunday, 06-Nov-94 08:49:37 GMT; two-digit years as RFC 9110 §5.6.7 says
                guard reader.take(UInt8(ascii: "-")), let month = reader.month(), reader.take(UInt8(ascii: "-")),
                    let short = reader.digits(2...2), reader.take(0x20), let clock = reader.clock(), reader.take(0x20),
                    reader.takeGMT()
                else { return nil }
                date = (day, month, short < 70 ? 2000 + short : 1900 + short, clock)
            }
        } else {  // Sun Nov  6 08:49:37 1994
            guard reader.take(0x20), let month = reader.month(), reader.take(0x20) else { return nil }
            _ = reader.take(0x20)
            guard let day = reader.digits(1...2), reader.take(0x20), let clock = reader.clock(), reader.take(0x20),
                let year = reader.digits(4...4)
            else { return nil }
            date = (day, month, year, clock)
        }
        guard reader.atEnd, (1...31).contains(date.day), (0...23).contains(date.clock.0),
            (0...59).contains(date.clock.1),
            (0...60).contains(date.clock.2)
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(date.year - 1900)
        parts.tm_mon = Int32(date.month)
        parts.tm_mday = Int32(date.day)
        parts.tm_hour = Int32(date.clock.0)
        parts.tm_min = Int32(date.clock.1)
        parts.tm_sec = Int32(date.clock.2)
        return Int(timegm(&parts))
    }
}

/// A cursor over a date's bytes; every number it reads is bounded by its digit count.
private struct DateReader {
    package let bytes: UnsafeBufferPointer<UInt8>
    package var index = 0

    package var atEnd: Bool { index == bytes.count }

    package mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    package mutating func skipLetters() {
        while index < bytes.count, (bytes[index] | 0x20) >= UInt8(ascii: "a"),
            (bytes[index] | 0x20) <= UInt8(ascii: "z")
        {
            index += 1
        }
    }

    /// Between `count.lowerBound` and `count.upperBound` decimal digits (at most 4).
    package mutating func digits(_ count: ClosedRange<Int>) -> Int? {
        var value = 0
        var read = 0
        while read < count.upperBound, index < bytes.count, bytes[index] >= UInt8(ascii: "0"),
            bytes[index] <= UInt8(ascii: "9")
        {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
            read += 1
        }
        guard read >= count.lowerBound else { return nil }
        if index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { return nil }
        return value
    }

    /// `Jan` … `Dec`, case-sensitive as the grammar writes them; 0-based.
    package mutating func month() -> Int? {
        guard index + 3 <= bytes.count else { return nil }
        for (number, name) in HTTPDate.months.enumerated() where name.utf8.elementsEqual(bytes[index..<index + 3]) {
            index += 3
            return number
        }
        return nil
    }

    /// `HH:MM:SS`, two digits each.
    package mutating func clock() -> (Int, Int, Int)? {
        guard let hour = digits(2...2), take(UInt8(ascii: ":")), let minute = digits(2...2), take(UInt8(ascii: ":")),
            let second = digits(2...2)
        else { return nil }
        return (hour, minute, second)
    }

    package mutating func takeGMT() -> Bool {
        take(UInt8(ascii: "G")) && take(UInt8(ascii: "M")) && take(UInt8(ascii: "T"))
    }
}
