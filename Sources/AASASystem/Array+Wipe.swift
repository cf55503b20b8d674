#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Array where Element == UInt8 {
    /// Zeroes the bytes in place, where they are (explicit_bzero(3): a store the compiler may
    /// not drop as dead), so that a private key read from disk does not outlive its use in
    /// the heap. Called while the array is the buffer's only reference: on a shared buffer
    /// the write would go to a copy and leave the original as it was.
    package mutating func wipe() {
        withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress {
                #if canImport(Darwin)
                    memset_s(base, raw.count, 0, raw.count)
                #else
                    explicit_bzero(base, raw.count)
                #endif
            }
        }
    }
}
