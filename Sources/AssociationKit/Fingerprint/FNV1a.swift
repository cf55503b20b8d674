/// FNV-1a, 64 bits (Fowler, Noll, Vo; draft-eastlake-fnv): a fast, stable hash for
/// entity-tags and meaning fingerprints, where a collision costs a needless transfer or one
/// wrong comparison among a few versions, never a wrong file.
public enum FNV1a {
    @inlinable
    public static func hash64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
