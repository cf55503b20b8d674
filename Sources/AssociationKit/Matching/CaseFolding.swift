/// Case folding for `caseSensitive: false`: ASCII exactly, other scalars by their simple
/// one-to-one lowercase mapping, so `?` still stands for one character after folding.
enum CaseFolding {
    @inline(__always)
    static func fold(_ value: UInt32) -> UInt32 {
        if value < 0x80 {
            return (value >= 0x41 && value <= 0x5A) ? value | 0x20 : value
        }
        guard let scalar = Unicode.Scalar(value) else { return value }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        guard lower.count == 1, let only = lower.first else { return value }
        return only.value
    }

    static func fold(_ values: [UInt32]) -> [UInt32] {
        values.map(fold)
    }
}
