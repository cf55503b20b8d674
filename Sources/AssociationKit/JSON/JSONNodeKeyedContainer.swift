/// An object's container for `JSONNodeEncoder`: each key gets a slot of its own.
struct JSONNodeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: JSONNodeSlot
    let codingPath: [any CodingKey]

    private func encoder(_ key: Key) -> JSONNodeSlotEncoder {
        JSONNodeSlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) { encoder(key).encodeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) { encoder(key).encode(value) }
    mutating func encode(_ value: String, forKey key: Key) { encoder(key).encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) { encoder(key).encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) { encoder(key).encode(value) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try value.encode(to: encoder(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        JSONNodeSlotEncoder(slot: slot.member("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder(key) }
}
