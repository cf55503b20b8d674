import AssociationKit
import Foundation
import Logging
import Testing

@testable import AASALoop
@testable import AASAServer

@Suite("log values by type")
struct LogValueTests {
    @Test(
        "JSON: numbers, booleans, lists and objects typed; anything else a string",
        arguments: [
            (Logger.MetadataValue.stringConvertible(42), "42"),
            (.stringConvertible(-1), "-1"),
            (.stringConvertible(true), "true"),
            (.stringConvertible(1.5), "1.5"),
            (.stringConvertible(Double.nan), #""nan""#),
            (.string("7"), #""7""#),
            (.array([.stringConvertible(1), .string("a\nb")]), #"[1,"a\u000ab"]"#),
            (.dictionary(["b": .stringConvertible(2), "a": .string("x")]), #"{"a":"x","b":2}"#),
        ])
    func json(value: Logger.MetadataValue, expected: String) throws {
        #expect(JSONWriter(lineSafe: true).text(LogValue.json(value)) == expected)
        _ = try JSONSerialization.jsonObject(with: Data(expected.utf8), options: .fragmentsAllowed)
    }

    @Test("text: a list as its count and items on one line (escaped by LogText)")
    func text() {
        let value = Logger.MetadataValue.array([
            .dictionary(["line": .stringConvertible(2), "code": .string("JSON003")]), .string("x\ny"),
        ])
        #expect(LogValue.text(value) == "2: code=JSON003 line=2; x\ny")
        #expect(LogText.field("diagnostics", LogValue.text(value)) == #"diagnostics="2: code=JSON003 line=2; x\ny""#)
    }
}
