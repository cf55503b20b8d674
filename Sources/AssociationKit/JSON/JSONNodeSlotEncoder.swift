/// The `Encoder` (and single-value container) behind `JSONNodeEncoder`, writing into a slot.
struct JSONNodeSlotEncoder: Encoder, SingleValueEncodingContainer {
    let slot: JSONNodeSlot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.makeObject()
        return KeyedEncodingContainer(JSONNodeKeyedContainer<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.makeArray()
        return JSONNodeUnkeyedContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { slot.content = .value(.null) }
    func encode(_ value: Bool) { slot.content = .value(.bool(value)) }
    func encode(_ value: String) { slot.content = .value(.string(value)) }
    func encode(_ value: Double) { slot.content = .value(.number(value)) }
    func encode(_ value: Float) { slot.content = .value(.number(Double(value))) }
    func encode(_ value: Int) { slot.content = .value(.integer(Int64(value))) }
    func encode(_ value: Int8) { slot.content = .value(.integer(Int64(value))) }
    func encode(_ value: Int16) { slot.content = .value(.integer(Int64(value))) }
    func encode(_ value: Int32) { slot.content = .value(.integer(Int64(value))) }
    func encode(_ value: Int64) { slot.content = .value(.integer(value)) }
    func encode(_ value: UInt) { slot.content = .value(.unsigned(UInt64(value))) }
    func encode(_ value: UInt8) { slot.content = .value(.unsigned(UInt64(value))) }
    func encode(_ value: UInt16) { slot.content = .value(.unsigned(UInt64(value))) }
    func encode(_ value: UInt32) { slot.content = .value(.unsigned(UInt64(value))) }
    func encode(_ value: UInt64) { slot.content = .value(.unsigned(value)) }

    func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: self)
    }
}
