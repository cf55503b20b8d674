import Testing

@testable import AASAStore

/// Keys are checked when they are made, so no store ever sees a hostile one
/// (docs/acme.md, "Several replicas, one store").
@Suite("Store keys")
struct StoreKeyTests {
    @Test(
        "the server's keys are accepted",
        arguments: [
            "x.example.com/fullchain.pem", "*.example.com/privkey.pem", "x.example.com/issuer",
            "accounts/acme-v02.api.letsencrypt.org-0123456789ab.key", "on-demand-names",
            "challenges/http-01/aBc-_09", "watches/leader", "a",
        ])
    func accepted(text: String) throws {
        #expect(StoreKey(text)?.text == text)
    }

    @Test(
        "hostile and malformed keys are refused",
        arguments: [
            "", "/etc/passwd", "../x", "a/../b", "a/..", ".", "..", ".hidden", "a/.lock-x", "a//b", "a/", "/",
            "a b", "a\u{0}b", "a\\b", "ü", "a%2fb", "a;b", "a'b", String(repeating: "a", count: 256),
            String(repeating: "abcdefgh/", count: 114) + "x",
        ])
    func refused(text: String) {
        #expect(StoreKey(text) == nil)
    }

    @Test(
        "private keys are told apart",
        arguments: [
            ("x/privkey.pem", true), ("accounts/h-1.key", true), ("x/fullchain.pem", false), ("x/issuer", false),
            ("keys", false),
        ])
    func privateKeys(text: String, isPrivate: Bool) throws {
        #expect(try #require(StoreKey(text)).isPrivate == isPrivate)
    }

    @Test(
        "libpq's messages lose the URI's secrets",
        arguments: [
            (
                "postgres://u:SECRET@ho%zzst/db", #"invalid percent-encoded token: "ho%zzst""#,
                #"invalid percent-encoded token: "ho%zzst""#
            ),
            (
                "postgres://u:SE%43RET@h/db", #"invalid percent-encoded token: "SE%43RET""#,
                #"invalid percent-encoded token: "***""#
            ),
            ("postgres://u:SE%43RET@h/db", "password SECRET wrong", "password *** wrong"),
            ("postgres://u:SECRET@[::1", #"in URI: "postgres://u:SECRET@[::1""#, #"in URI: "u@[::1""#),
            ("postgres://u@h/db?password=SECRET", "got SECRET", "got ***"),
        ])
    func scrubbed(uri: String, message: String, scrubbed: String) {
        #expect(StoreLocation.scrubbed(message, uri: uri) == scrubbed)
    }

    @Test(
        "a PostgreSQL location's summary has no password or parameters",
        arguments: [
            ("postgres://aasa:s3cret@db.internal:5432/aasa?sslmode=require", "postgres aasa@db.internal:5432/aasa"),
            ("postgresql://db/aasa", "postgres db/aasa"),
            ("postgresql://u:p@h1:1,h2:2/d?password=x", "postgres u@h1:1,h2:2/d"),
            // libpq matches its schemes case-sensitively: another case is a (relative) folder.
            ("POSTGRES://h", "folder POSTGRES://h"),
            ("PostgreSQL://h/d", "folder PostgreSQL://h/d"),
            ("postgres:/h", "folder postgres:/h"),
            ("/var/lib/aasa/store", "folder /var/lib/aasa/store"),
            ("relative/postgres://x", "folder relative/postgres://x"),
        ])
    func locationSummary(text: String, summary: String) {
        #expect(StoreLocation(parsing: text).description == summary)
    }
}
