import AASATransport
import AssociationKit
import Foundation
@preconcurrency import Glibc

/// ACME Renewal Information (RFC 9773): the CA's suggested window for renewing one
/// certificate, and how the client asks for it and follows it (docs/acme.md, "Renewal
/// information").
public struct RenewalInfo: Sendable, Equatable {
    /// Seconds since the epoch; `start < end` (§4.2: any other window is no answer).
    public var start: Int
    public var end: Int

    public init?(start: Int, end: Int) {
        guard start < end else { return nil }
        self.start = start
        self.end = end
    }

    /// The CertID (§4.1): base64url of the authority key identifier's keyIdentifier, ".",
    /// base64url of the serial number's DER content octets. nil without an AKI.
    public static func certID(authorityKeyID: [UInt8]?, serialNumber: [UInt8]) -> String? {
        guard let authorityKeyID, !authorityKeyID.isEmpty, !serialNumber.isEmpty else { return nil }
        return Base64URL.encode(authorityKeyID) + "." + Base64URL.encode(serialNumber)
    }

    /// How long until the next check when the CA gives no Retry-After: six hours (§4.3).
    public static let defaultCheckInterval = 21_600
    /// The CA's Retry-After is clamped to a minute to a day (§4.3: reasonable limits).
    public static let checkIntervals = 60...86_400
    /// After a failed check, the next in an hour; renewal meanwhile follows the third rule.
    public static let failedCheckInterval = 3_600

    /// A uniformly random moment in the window (§4.2), as seconds since the epoch.
    public func randomMoment<G: RandomNumberGenerator>(using generator: inout G) -> Int {
        Int.random(in: start..<end, using: &generator)
    }

    /// The `suggestedWindow` of a RenewalInfo object (§4.2), nil when it has none or an
    /// unreadable or empty one.
    init?(json: JSONValue) {
        guard let window = json["suggestedWindow"], let start = window["start"]?.stringValue,
            let end = window["end"]?.stringValue, let from = Self.timestamp(start), let to = Self.timestamp(end)
        else { return nil }
        self.init(start: from, end: to)
    }

    /// An RFC 3339 §5.6 date-time (`2025-01-02T04:00:00Z`, fractional seconds and an offset
    /// allowed) as seconds since the epoch; nil for anything else.
    static func timestamp(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] | 0x20 == 0x74, bytes[13] == 0x3A,
            bytes[16] == 0x3A, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var index = 19
        if bytes[index] == 0x2E {
            index += 1
            let digits = bytes[index...].prefix { (0x30...0x39).contains($0) }.count
            guard digits > 0 else { return nil }
            index += digits
        }
        var offset = 0
        guard index < bytes.count else { return nil }
        if bytes[index] | 0x20 == 0x7A {
            index += 1
        } else if bytes[index] == 0x2B || bytes[index] == 0x2D, let hours = number((index + 1)..<(index + 3)),
            index + 3 < bytes.count, bytes[index + 3] == 0x3A, let minutes = number((index + 4)..<(index + 6)),
            hours < 24, minutes < 60
        {
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == 0x2B ? 1 : -1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(min(second, 59))
        return Int(timegm(&parts)) - offset
    }
}
