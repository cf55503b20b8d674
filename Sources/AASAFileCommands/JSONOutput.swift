import AssociationKit

/// `--json` output: sorted keys and slashes as they are, so JSON pointers read as written,
/// written by AssociationKit's one JSON writer.
package enum JSONOutput {
    package static func encode<T: Encodable>(_ value: T, pretty: Bool = true) -> String {
        guard let node = try? JSONNodeEncoder.node(value) else { return "{}" }
        return JSONWriter(sortedKeys: true, pretty: pretty).text(node)
    }
}
