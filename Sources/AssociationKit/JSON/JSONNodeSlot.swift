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
        case .value(let node): node
        case .object(let members): .object(members.map { (key: $0.0, value: $0.1.node) })
        case .array(let elements): .array(elements.map(\.node))
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

    /// Sets `key` (replacing an earlier value of it, as `JSONEncoder` does) to a new slot.
    func member(_ key: String) -> JSONNodeSlot {
        let slot = JSONNodeSlot()
        guard case .object(var members) = content else { return slot }
        members.removeAll { $0.0 == key }
        members.append((key, slot))
        content = .object(members)
        return slot
    }

    func element() -> JSONNodeSlot {
        let slot = JSONNodeSlot()
        guard case .array(var elements) = content else { return slot }
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
