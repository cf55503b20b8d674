import AssociationKit

/// A JSON object from the CA, read by AssociationKit's parser, with typed fields: a field of
/// the wrong type is an `ACMEProblem` naming the object, the field and what it held, never a
/// cast that quietly gives nil or a crash (RFC 8555 §7.1 gives every field's type).
struct ACMEObject {
    let value: JSONValue
    /// What the object is, for messages: "the directory", "an order".
    let what: String

    /// `value` when it is an object; otherwise the problem says what came instead.
    init(_ value: JSONValue?, _ what: String) throws(ACMEProblem) {
        guard let value else { throw ACMEProblem.malformed("\(what) is not JSON") }
        guard value.members != nil else { throw ACMEProblem.malformed("\(what) is \(value.typeName), not an object") }
        self.value = value
        self.what = what
    }

    private func wrong(_ key: String, _ found: JSONValue, expected: String) -> ACMEProblem {
        ACMEProblem.malformed("\(what) has \(found.typeName) for \"\(key)\", not \(expected)")
    }

    /// A required string.
    func string(_ key: String) throws(ACMEProblem) -> String {
        guard let text = try optionalString(key) else { throw ACMEProblem.malformed("\(what) has no \"\(key)\"") }
        return text
    }

    /// A string, nil when absent or null.
    func optionalString(_ key: String) throws(ACMEProblem) -> String? {
        guard let field = value[key], !field.isNull else { return nil }
        guard let text = field.stringValue else { throw wrong(key, field, expected: "a string") }
        return text
    }

    /// An array of strings, empty when absent.
    func strings(_ key: String) throws(ACMEProblem) -> [String] {
        guard let field = value[key], !field.isNull else { return [] }
        guard let elements = field.arrayValue else { throw wrong(key, field, expected: "an array of strings") }
        var result: [String] = []
        for element in elements {
            guard let text = element.stringValue else { throw wrong(key, field, expected: "an array of strings") }
            result.append(text)
        }
        return result
    }

    /// An object, nil when absent or null.
    func object(_ key: String) throws(ACMEProblem) -> ACMEObject? {
        guard let field = value[key], !field.isNull else { return nil }
        return try ACMEObject(field, "\"\(key)\" of \(what)")
    }

    /// An array of objects, empty when absent.
    func objects(_ key: String) throws(ACMEProblem) -> [ACMEObject] {
        guard let field = value[key], !field.isNull else { return [] }
        guard let elements = field.arrayValue else { throw wrong(key, field, expected: "an array of objects") }
        var result: [ACMEObject] = []
        for (index, element) in elements.enumerated() {
            result.append(try ACMEObject(element, "\"\(key)\"[\(index)] of \(what)"))
        }
        return result
    }
}
