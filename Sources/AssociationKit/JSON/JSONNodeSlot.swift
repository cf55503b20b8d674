/// A place in a document being encoded: a value, or an object or array whose members are
/// filled in later (an `Encoder`'s containers outlive the call that made them).
final class JSONNodeSlot {
    enum Content {
        case value(JSONNode)
        case object([(String, JSONNodeSlot)])
        case array([JSONNodeSlot])
    }

    var content: Content = .value(.null)

    init() {}

    init(_ node: JSONNode) { content = .value(node) }

    var node: JSONNode {
        switch content {
        case .value(let node): return node
        case .object(let members):
            // The last value of each key, in the order the keys first came.
            var last: [String: JSONNodeSlot] = [:]
            for (key, slot) in members { last[key] = slot }
            var seen: Set<String> = []
            return .object(
                members.compactMap { key, slot in
                    seen.insert(key).inserted ? (key: key, value: last[key, default: slot].node) : nil
                })
        case .array(let elements): return .array(elements.map(\.node))
        }
    }

    /// Makes this slot an object, keeping members already encoded into it.
    func makeObject() {
        if case .object = content { return }
        content = .object([])
    }

    func makeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// Adds `key` with a new slot; a key encoded again replaces the earlier value when the
    /// node is made, as `JSONEncoder` does.
    func member(_ key: String) -> JSONNodeSlot {
        let slot = JSONNodeSlot()
        guard case .object(var members) = content else { return slot }
        // Released first, so the append below is in place rather than a copy per member.
        content = .value(.null)
        members.append((key, slot))
        content = .object(members)
        return slot
    }

    func element() -> JSONNodeSlot {
        let slot = JSONNodeSlot()
        guard case .array(var elements) = content else { return slot }
        // Released first, so the append is in place: a document of 100,000 files stays linear.
        content = .value(.null)
        elements.append(slot)
        content = .array(elements)
        return slot
    }

    var count: Int {
        switch content {
        case .value: 0
        case .object(let members): members.count
        case .array(let elements): elements.count
        }
    }
}
