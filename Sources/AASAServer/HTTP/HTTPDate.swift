@preconcurrency import Glibc

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate out, and all three formats in.
enum HTTPDate {
    static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, always 29 bytes.
    static func format(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// `2026-11-22T10:05:03Z`, for logs.
    static func iso8601(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    private static func two(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Seconds since the epoch, from IMF-fixdate, RFC 850 or asctime form; nil if invalid
    /// (an invalid If-Modified-Since is ignored, RFC 9110 §13.1.3).
    static func parse(_ text: String) -> Int? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map(String.init)
        var day: Int?, month: Int?, year: Int?, clock: [Int]?
        switch words.count {
        case 6 where words[5] == "GMT":  // Sun, 06 Nov 1994 08:49:37 GMT / Sunday, 06-Nov-94 08:49:37 GMT
            day = Int(words[1])
            month = months.firstIndex(of: words[2])
            year = Int(words[3]).map { words[3].count == 2 ? ($0 < 70 ? 2000 + $0 : 1900 + $0) : $0 }
            clock = words[4].split(separator: ":").compactMap { Int($0) }
        case 5:  // Sun Nov  6 08:49:37 1994
            month = months.firstIndex(of: words[1])
            day = Int(words[2])
            clock = words[3].split(separator: ":").compactMap { Int($0) }
            year = Int(words[4])
        default:
            return nil
        }
        guard let day, let month, let year, let clock, clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]),
            (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(clock[0])
        parts.tm_min = Int32(clock[1])
        parts.tm_sec = Int32(clock[2])
        return Int(timegm(&parts))
    }
}
