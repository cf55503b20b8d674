import AASASystem
import AASATransport
@preconcurrency import Glibc

/// The `Date` header value and the log timestamp, formatted once per second per loop rather
/// than per response (lwan's `update_date_cache`). One per loop, shared with its writers.
package final class DateCache {
    package private(set) var second = -1
    package private(set) var httpDate: [UInt8] = []
    private(set) var logTime: [UInt8] = []

    func refresh() {
        let now = Int(time(nil))
        guard now != second else { return }
        second = now
        httpDate = Array(HTTPDate.format(now).utf8)
        logTime = Array(HTTPDate.iso8601(now).utf8)
    }
}
