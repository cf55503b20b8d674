/// Builds a `JSONNode` from an `Encodable`, so the commands' and `/sites.json`'s documents are
/// written by `JSONWriter` like every other JSON: Foundation's `JSONEncoder` would be a second
/// writer with escapes of its own (`\/`, and no way to write bytes from the wire).
public enum JSONNodeEncoder {
    public static func node<Value: Encodable>(_ value: Value) throws -> JSONNode {
        let slot = JSONNodeSlot()
        try value.encode(to: JSONNodeSlotEncoder(slot: slot, codingPath: []))
        return slot.node
    }
}
