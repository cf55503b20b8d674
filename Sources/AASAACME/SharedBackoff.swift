/// A name's failure backoff as every replica reads it from the store, `backoff/NAME`
/// (docs/acme.md, "Several replicas"): no replica orders the name before `until`, and the
/// next order goes to issuer `issuerIndex` with the backoff grown from `failures`. Written by
/// the replica whose order failed while it still holds the name's lock; removed by the one
/// whose order succeeds. Lines of `key=value`; a value that does not read is no backoff.
struct SharedBackoff: Equatable {
    /// Seconds since the epoch.
    var until: Int
    var failures: Int
    var issuerIndex: Int
    /// The CA's problem, as the status page shows it.
    var problem: String

    var text: String {
        let oneLine = String(problem.map { $0 == "\n" || $0 == "\r" ? " " : $0 }.prefix(1000))
        return "until=\(until)\nfailures=\(failures)\nissuer=\(issuerIndex)\nproblem=\(oneLine)\n"
    }

    init(until: Int, failures: Int, issuerIndex: Int, problem: String) {
        self.until = until
        self.failures = failures
        self.issuerIndex = issuerIndex
        self.problem = problem
    }

    init?(bytes: [UInt8]) {
        guard bytes.count <= 4096 else { return nil }
        var fields: [Substring: Substring] = [:]
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[line[..<equals]] = line[line.index(after: equals)...]
        }
        guard let until = fields["until"].flatMap({ Int($0) }), let failures = fields["failures"].flatMap({ Int($0) }),
            let issuer = fields["issuer"].flatMap({ Int($0) }), (0...10_000).contains(failures),
            (0...10_000).contains(issuer)
        else { return nil }
        self.init(until: until, failures: failures, issuerIndex: issuer, problem: String(fields["problem"] ?? ""))
    }
}
