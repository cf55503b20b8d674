/// An array's container for `JSONNodeEncoder`: each element gets a slot of its own.
struct JSONNodeUnkeyedContainer: UnkeyedEncodingContainer {
    let slot: JSONNodeSlot
    let codingPath: [any CodingKey]
    var count: Int { slot.count }

    private func encoder() -> JSONNodeSlotEncoder {
        JSONNodeSlotEncoder(slot: slot.element(), codingPath: codingPath)
    }

    mutating func encodeNil() { encoder().encodeNil() }
    mutating func encode(_ value: Bool) { encoder().encode(value) }
    mutating func encode(_ value: String) { encoder().encode(value) }
    mutating func encode(_ value: Double) { encoder().encode(value) }
    mutating func encode(_ value: Int) { encoder().encode(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: encoder())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        encoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { encoder().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { encoder() }
}
