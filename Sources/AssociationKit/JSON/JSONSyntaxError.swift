/// The first thing in the input that is not RFC 8259 JSON. Parsing stops there: after a
/// syntax error nothing later in the file can be read reliably.
struct JSONSyntaxError: Error {
    var code: DiagnosticCode
    var message: String
    var offset: Int
}
