extension ACMEManager {
    /// Exponential backoff with ±25 % jitter, at most a day and at most a tenth of the
    /// certificate's `remaining` lifetime (a 6-day certificate is not left a day unrenewed),
    /// never under a minute; never sooner than the CA asked (RFC 8555 §6.6) when the next
    /// attempt goes to the same CA, but never more than a day for what it asks (docs/acme.md,
    /// "Numbers from the CA").
    static func backoff(failures: Int, retryAfter: Int?, remaining: Int? = nil, sameIssuer: Bool = true) -> Int {
        let base = min(firstBackoff << min(max(failures, 1) - 1, 20), longestBackoff)
        let jittered = Int(Double(base) * Double.random(in: 0.75...1.25))
        let capped = remaining.map { min(jittered, max(firstBackoff, $0 / 10)) } ?? jittered
        return max(capped, sameIssuer ? min(max(retryAfter ?? 0, 0), longestBackoff) : 0)
    }

    /// `now + seconds`, saturating instead of trapping.
    static func later(_ now: Int, _ seconds: Int) -> Int {
        let (sum, overflow) = now.addingReportingOverflow(seconds)
        return overflow ? (seconds > 0 ? .max : .min) : sum
    }
}
