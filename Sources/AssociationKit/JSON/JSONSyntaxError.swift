/// A mistake the reader cannot read past (`JSONParser+Recovery.swift` lists those it can).
/// Parsing stops there: after it nothing later in the file can be read reliably.
struct JSONSyntaxError: Error {
    var code: DiagnosticCode
    var message: String
    var offset: Int
}
