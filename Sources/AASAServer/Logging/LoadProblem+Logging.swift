import AASASites
import Logging

extension LoadProblem {
    /// One diagnostic as an event's value: an object with typed fields in JSON, so a shipper
    /// filters by code or file without parsing the `validate` line.
    public var logged: Logger.MetadataValue {
        var fields: Logger.Metadata = [
            "code": .string(code), "severity": .string(severity.rawValue), "file": .string(path),
            "message": .string(message),
        ]
        if let site { fields["site"] = .string(site) }
        if let lineNumber { fields["line"] = .stringConvertible(lineNumber) }
        if let column { fields["column"] = .stringConvertible(column) }
        if let pointer { fields["pointer"] = .string(pointer) }
        return .dictionary(fields)
    }
}
