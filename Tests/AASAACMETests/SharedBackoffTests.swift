import Testing

@testable import AASAACME

/// `backoff/NAME` as the replicas read it.
@Suite("Shared backoff")
struct SharedBackoffTests {
    @Test(
        "reads what it writes; anything else is no backoff",
        arguments: [
            (
                "until=100\nfailures=2\nissuer=1\nproblem=connection refused\n",
                SharedBackoff(
                    until: 100, failures: 2, issuerIndex: 1, problem: "connection refused")
            ),
            ("until=100\nfailures=2\nissuer=0\n", SharedBackoff(until: 100, failures: 2, issuerIndex: 0, problem: "")),
            ("until=x\nfailures=2\nissuer=0\n", nil), ("failures=2\nissuer=0\n", nil),
            ("until=1\nfailures=-1\nissuer=0\n", nil), ("", nil),
        ] as [(String, SharedBackoff?)])
    func parse(text: String, expected: SharedBackoff?) {
        #expect(SharedBackoff(bytes: Array(text.utf8)) == expected)
    }

    @Test("a problem with line breaks stays one line")
    func roundTrip() {
        let backoff = SharedBackoff(until: 5, failures: 1, issuerIndex: 0, problem: "a\nb\rc")
        let read = SharedBackoff(bytes: Array(backoff.text.utf8))
        #expect(read?.problem == "a b c" && read?.until == 5)
    }
}
