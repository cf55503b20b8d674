/// A normalized host name as the key of a site map, compared and hashed as bytes. A map
/// stores owned keys; a lookup builds a borrowed one over the request's own bytes, so
/// finding a site allocates nothing whatever the name's length (`HostName.lookup`).
public enum HostKey: Hashable, @unchecked Sendable {
    case owned([UInt8])
    /// Valid only during the lookup that made it; never stored.
    case borrowed(UnsafeBufferPointer<UInt8>)

    public init(_ name: String) {
        self = .owned(Array(name.utf8))
    }

    @inlinable
    public init(borrowing bytes: UnsafeBufferPointer<UInt8>) {
        self = .borrowed(bytes)
    }

    /// The name as text (stored keys only are ever read back).
    public var name: String {
        withBytes { String(decoding: $0, as: UTF8.self) }
    }

    @inlinable @inline(__always)
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch self {
        case .owned(let bytes): bytes.withUnsafeBufferPointer(body)
        case .borrowed(let bytes): body(bytes)
        }
    }

    @inlinable
    public static func == (left: HostKey, right: HostKey) -> Bool {
        left.withBytes { a in
            right.withBytes { b in
                guard a.count == b.count else { return false }
                // Eight bytes at a time: host names are short, and this runs per request.
                let (first, second) = (UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b))
                var index = 0
                while index + 8 <= a.count {
                    let word = first.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    guard word == second.loadUnaligned(fromByteOffset: index, as: UInt64.self) else { return false }
                    index += 8
                }
                while index < a.count {
                    guard a[index] == b[index] else { return false }
                    index += 1
                }
                return true
            }
        }
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
