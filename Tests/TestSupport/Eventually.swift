import Foundation
@preconcurrency import Glibc

/// Polls `condition` every 50 ms until it holds or `seconds` pass (no fixed sleeps in tests):
/// the last answer after the deadline.
public func eventually(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(50_000)
    }
    return try condition()
}
