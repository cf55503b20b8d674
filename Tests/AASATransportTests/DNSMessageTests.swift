import AASATransport
import Testing

/// The pre-flight's DNS messages (RFC 1035 §4) on crafted answers: compression, CNAME chains,
/// and hostile messages (pointer loops, lengths past the end, another id or question), none
/// of which may crash, hang or be taken for an answer.
@Suite("DNS messages")
struct DNSMessageTests {
    static let id: UInt16 = 0x1234
    /// www.example.com in wire form.
    static let question: [UInt8] = [3] + Array("www".utf8) + [7] + Array("example".utf8) + [3] + Array("com".utf8) + [0]

    static func header(id: UInt16 = id, flags: UInt16 = 0x8180, questions: UInt16 = 1, answers: UInt16) -> [UInt8] {
        [
            UInt8(id >> 8), UInt8(id & 0xFF), UInt8(flags >> 8), UInt8(flags & 0xFF), 0, UInt8(questions), 0,
            UInt8(answers & 0xFF), 0, 0, 0, 0,
        ]
    }

    static func record(_ owner: [UInt8], type: UInt16, data: [UInt8], length: Int? = nil) -> [UInt8] {
        let count = length ?? data.count
        return owner + [0, UInt8(type), 0, 1, 0, 0, 0, 60, UInt8(count >> 8), UInt8(count & 0xFF)] + data
    }

    /// A response to the A question for www.example.com with `records` after it.
    static func response(flags: UInt16 = 0x8180, question: [UInt8] = question, answers: UInt16, _ records: [UInt8])
        -> [UInt8]
    {
        header(flags: flags, answers: answers) + question + [0, 1, 0, 1] + records
    }

    /// To the question's name (offset 12); an answer's first record then starts at 33 and its
    /// data at 45.
    static let pointer: [UInt8] = [0xC0, 12]
    static let edge: [UInt8] = [4] + Array("edge".utf8) + [7] + Array("example".utf8) + [3] + Array("net".utf8) + [0]

    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let message: [UInt8]
        let expected: DNSMessage.Answer
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "an A record whose owner points at the question",
            message: response(answers: 1, record(pointer, type: 1, data: [127, 0, 0, 1])),
            expected: .addresses([[127, 0, 0, 1]])),
        Case(
            label: "a CNAME to another zone, then its A record",
            message: response(
                answers: 2, record(pointer, type: 5, data: edge) + record([0xC0, 45], type: 1, data: [192, 0, 2, 7])),
            expected: .addresses([[192, 0, 2, 7]])),
        Case(
            label: "an A record for a name outside the chain is ignored",
            message: response(answers: 1, record(edge, type: 1, data: [192, 0, 2, 7])), expected: .addresses([])),
        Case(
            label: "an A record of 5 bytes is ignored",
            message: response(answers: 1, record(pointer, type: 1, data: [1, 2, 3, 4, 5])), expected: .addresses([])),
        Case(
            label: "the question in mixed case (0x20) is still the question",
            message: header(answers: 1) + [3] + Array("WwW".utf8) + Array(question.dropFirst(4)) + [0, 1, 0, 1]
                + record(pointer, type: 1, data: [10, 0, 0, 1]),
            expected: .addresses([[10, 0, 0, 1]])),
        Case(
            label: "another id", message: header(id: 0x4321, answers: 0) + question + [0, 1, 0, 1],
            expected: .unrelated("another id")),
        Case(
            label: "a query, not a response", message: response(flags: 0x0100, answers: 0, []),
            expected: .unrelated("not a response to a query")),
        Case(
            label: "another question",
            message: response(question: edge, answers: 1, record(pointer, type: 1, data: [127, 0, 0, 1])),
            expected: .unrelated("another question")),
        Case(label: "truncated (TC)", message: response(flags: 0x8380, answers: 0, []), expected: .truncated),
        Case(label: "no such name", message: response(flags: 0x8183, answers: 0, []), expected: .noSuchName),
        Case(label: "SERVFAIL", message: response(flags: 0x8182, answers: 0, []), expected: .failed(rcode: 2)),
        Case(
            label: "shorter than a header", message: [0x12, 0x34, 0x81], expected: .unrelated("shorter than a header")),
        Case(
            label: "a pointer to itself",
            message: response(answers: 1, [0xC0, 33] + [0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 1, 2, 3, 4]),
            expected: .unrelated("a record does not read")),
        Case(
            label: "a pointer forwards",
            message: response(answers: 1, [0xC0, 40] + [0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 1, 2, 3, 4]),
            expected: .unrelated("a record does not read")),
        Case(
            label: "two pointers into each other (a loop through the question)",
            message: header(answers: 0) + [0xC0, 14, 0xC0, 12] + [0, 1, 0, 1],
            expected: .unrelated("the question does not read")),
        Case(
            label: "data longer than the message",
            message: response(answers: 1, record(pointer, type: 1, data: [127, 0, 0, 1], length: 400)),
            expected: .unrelated("a record does not read")),
        Case(
            label: "65,535 answers announced, none sent", message: response(answers: 0xFFFF, []),
            expected: .unrelated("a record does not read")),
        Case(
            label: "a CNAME loop ends without addresses",
            message: response(
                answers: 2,
                record(pointer, type: 5, data: edge) + record([0xC0, 45], type: 5, data: pointer)),
            expected: .addresses([])),
        Case(
            label: "a CNAME whose data is longer than its name",
            message: response(answers: 1, record(pointer, type: 5, data: edge + [9])),
            expected: .unrelated("a CNAME does not read")),
        Case(
            label: "an extended label type (0x40)",
            message: response(answers: 1, [0x41, 0] + [0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 1, 2, 3, 4]),
            expected: .unrelated("a record does not read")),
        Case(
            label: "a name over 255 bytes through labels",
            message: response(
                answers: 1,
                Array(repeating: [63] + Array(repeating: UInt8(ascii: "a"), count: 63), count: 5).flatMap { $0 } + [0]
                    + [0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 1, 2, 3, 4]),
            expected: .unrelated("a record does not read")),
    ]

    @Test("answers", arguments: cases)
    func answers(_ item: Case) {
        #expect(DNSMessage.answer(item.message, id: Self.id, name: "www.example.com", type: .a) == item.expected)
    }

    @Test("queries: one question, RD set, lowercased; names DNS cannot carry refused")
    func queries() {
        #expect(
            DNSMessage.query(id: Self.id, name: "WWW.Example.com.", type: .aaaa)
                == [0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0] + Self.question + [0, 28, 0, 1])
        for bad in [
            "", ".", "a..b", "ex ample.com", String(repeating: "a", count: 64) + ".com",
            Array(repeating: String(repeating: "a", count: 60), count: 5).joined(separator: "."), "é.example",
        ] {
            #expect(DNSMessage.query(id: 1, name: bad, type: .a) == nil, "\(bad)")
        }
    }

    @Test("every byte of an answer changed to every value: no crash, and never an answer to another id")
    func mutations() {
        let valid = Self.response(
            answers: 2,
            Self.record(Self.pointer, type: 5, data: Self.edge)
                + Self.record([0xC0, 45], type: 1, data: [192, 0, 2, 7]))
        var read = 0
        for index in valid.indices {
            var message = valid
            for value in 0...255 {
                message[index] = UInt8(value)
                let answer = DNSMessage.answer(message, id: Self.id, name: "www.example.com", type: .a)
                if index < 2 && message[index] != valid[index] { #expect(answer == .unrelated("another id")) }
                read += 1
            }
        }
        // Every prefix too (a datagram cut short).
        for count in 0..<valid.count {
            _ = DNSMessage.answer(Array(valid.prefix(count)), id: Self.id, name: "www.example.com", type: .a)
        }
        #expect(read == valid.count * 256)
    }
}
