import AASASystem
import AASATransport
@preconcurrency import Glibc

/// The `Date` header value and the log timestamp, formatted once per second per loop rather
/// than per response (lwan's `update_date_cache`). One per loop, shared with its writers.
package final class DateCache {
    var currentSecond = -1
    var currentHTTPDate: [UInt8] = []
    private(set) var logTime: [UInt8] = []

    // Read by the handlers' modules through these accessors, compiled here: a read of a
    // class's stored property compiled there would pay their run-time exclusivity check.
    package var second: Int { currentSecond }
    package var httpDate: [UInt8] { currentHTTPDate }

    func refresh() {
        let now = Int(time(nil))
        guard now != currentSecond else { return }
        currentSecond = now
        currentHTTPDate = Array(HTTPDate.format(now).utf8)
        logTime = Array(HTTPDate.iso8601(now).utf8)
    }
}
