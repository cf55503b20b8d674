import AASALoop
import AssociationKit
import Logging

/// How events render a metadata value by its type, so a log shipper reads what was meant:
/// JSON writes integers and finite numbers as numbers, booleans as booleans, lists as arrays
/// and dictionaries as objects (RFC 8259 §3); text writes a list as its count and its items
/// on the same line (`LogText` escapes them), a dictionary as `key=value` pairs.
enum LogValue {
    static func json(_ value: Logger.MetadataValue) -> JSONNode {
        switch value {
        case .string(let text): return .string(text)
        case .stringConvertible(let item):
            if let flag = item as? Bool { return .bool(flag) }
            if let integer = item as? any BinaryInteger, let exact = Int64(exactly: integer) { return .integer(exact) }
            if let integer = item as? any BinaryInteger, let exact = UInt64(exactly: integer) {
                return .unsigned(exact)
            }
            if let number = item as? Double, number.isFinite { return .number(number) }
            return .string(item.description)
        case .array(let items): return .array(items.map(json))
        case .dictionary(let members):
            return .object(members.sorted { $0.key < $1.key }.map { (key: $0.key, value: json($0.value)) })
        }
    }

    static func text(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let item): item.description
        case .array(let items): "\(items.count): " + items.map(text).joined(separator: "; ")
        case .dictionary(let members):
            members.sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }.joined(separator: " ")
        }
    }
}
