/// RFC 6901 JSON Pointers, built while walking a document.
public enum JSONPointer {
    /// The pointer of `key` inside the object at `parent`; `~` and `/` are escaped (RFC 6901 §3).
    public static func appending(_ key: String, to parent: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return parent + "/" + key
        }
        var escaped = ""
        for character in key.unicodeScalars {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return parent + "/" + escaped
    }

    public static func appending(_ index: Int, to parent: String) -> String {
        parent + "/" + String(index)
    }

    /// How a pointer reads in a message: the empty pointer is the whole document.
    public static func display(_ pointer: String) -> String {
        pointer.isEmpty ? "the top level" : pointer
    }
}
