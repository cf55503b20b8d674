import AssociationKit
import Testing

@testable import AASAACME

/// The CA's JSON read by AssociationKit's parser: a wrong shape is an ACMEProblem that says
/// which field held what, never a crash or a field quietly read as absent.
@Suite("ACME objects")
struct ACMEObjectTests {
    static func object(_ text: String, _ what: String = "the order") throws(ACMEProblem) -> ACMEObject {
        try ACMEObject(JSONDocument.parse(Array(text.utf8)).root, what)
    }

    static let order = #"{"status": "valid", "finalize": "https://ca/f", "authorizations": ["https://ca/a"]}"#

    @Test("a well-formed order reads field by field")
    func reads() throws {
        let order = try Self.object(Self.order)
        #expect(try order.string("status") == "valid")
        #expect(try order.strings("authorizations") == ["https://ca/a"])
        #expect(try order.optionalString("certificate") == nil)
        #expect(try order.object("error") == nil)
        #expect(try order.objects("challenges").isEmpty)
    }

    static let wrongShapes: [(String, String)] = [
        ("not json", "the order is not JSON"),
        ("[]", "the order is an array, not an object"),
        (#""valid""#, "the order is a string, not an object"),
        (#"{"finalize": "https://ca/f"}"#, #"the order has no "status""#),
        (#"{"status": 1, "finalize": "https://ca/f"}"#, #"the order has a number for "status", not a string"#),
        (#"{"status": "valid", "finalize": null}"#, #"the order has no "finalize""#),
        (
            #"{"status": "valid", "finalize": "f", "authorizations": "https://ca/a"}"#,
            #"the order has a string for "authorizations", not an array of strings"#
        ),
        (
            #"{"status": "valid", "finalize": "f", "authorizations": ["a", 2]}"#,
            #"the order has an array for "authorizations", not an array of strings"#
        ),
        (
            #"{"status": "valid", "finalize": "f", "error": "boom"}"#,
            #""error" of the order is a string, not an object"#
        ),
        (
            #"{"status": "valid", "finalize": "f", "challenges": [{"type": "http-01"}, 3]}"#,
            #""challenges"[1] of the order is a number, not an object"#
        ),
    ]

    @Test("a wrong shape is a problem naming the field and what it held", arguments: wrongShapes)
    func wrongShape(text: String, detail: String) {
        do {
            let order = try Self.object(text)
            _ = try order.string("status")
            _ = try order.string("finalize")
            _ = try order.strings("authorizations")
            _ = try order.object("error")
            _ = try order.objects("challenges")
            Issue.record("no problem for \(text)")
        } catch {
            #expect(error.type == "response" && error.detail == detail, "\(error)")
        }
    }

    @Test("a problem document: its fields when strings and numbers, the fallback otherwise")
    func problems() {
        let document = JSONDocument.parse(
            Array(#"{"type": "urn:ietf:params:acme:error:badNonce", "detail": "stale", "status": 400}"#.utf8)
        ).root
        let problem = ACMEProblem(json: document)
        #expect(problem.code == "badNonce" && problem.detail == "stale" && problem.status == 400)
        let odd = ACMEProblem(json: JSONDocument.parse(Array(#"{"type": 3, "status": "x"}"#.utf8)).root, fallback: "f")
        #expect(odd.type == "about:blank" && odd.detail == "f" && odd.status == nil)
    }
}
