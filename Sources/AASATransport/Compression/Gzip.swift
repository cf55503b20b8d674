import CZlib

/// gzip framing (RFC 1952) through system zlib, done once per file at load time.
package enum Gzip {
    package struct Failure: Error, CustomStringConvertible {
        package var code: Int32
        /// Set when the output passed the caller's limit (a gzip bomb, or just too large).
        package var limit: Int?
        package var description: String { limit.map { "it inflates past \($0 / 1024) KiB" } ?? "zlib error \(code)" }

        package init(code: Int32, limit: Int? = nil) {
            self.code = code
            self.limit = limit
        }
    }

    package static func compress(_ input: [UInt8], level: Int32 = 9) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        // A window no larger than the input finds the same matches, and a hash table sized to
        // it too: a 400-byte file then needs a few KiB of state instead of 256 KiB, which is
        // most of the cost at load time with many sites (zlib.h, deflateInit2).
        let windowBits = Int32(min(15, max(9, Int.bitWidth - input.count.leadingZeroBitCount)))
        let memoryLevel = max(1, min(9, windowBits - 6))
        // deflateInit2 is a macro: call deflateInit2_ with the library's own version string.
        // windowBits + 16 selects the gzip wrapper instead of zlib's.
        let initialized = deflateInit2_(
            &stream, level, Z_DEFLATED, windowBits + 16, memoryLevel, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size))
        guard initialized == Z_OK else { throw Failure(code: initialized) }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        var input = input
        let result = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = UInt32(destination.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { throw Failure(code: result) }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Inflates a gzip body (what the probe receives), refusing more than `limit` bytes.
    package static func decompress(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        let initialized = inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initialized == Z_OK else { throw Failure(code: initialized) }
        defer { inflateEnd(&stream) }
        var input = input
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var result: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while result == Z_OK && output.count <= limit {
                let produced = chunk.withUnsafeMutableBufferPointer { destination -> Int in
                    stream.next_out = destination.baseAddress
                    stream.avail_out = UInt32(destination.count)
                    result = inflate(&stream, Z_NO_FLUSH)
                    return destination.count - Int(stream.avail_out)
                }
                output += chunk[..<produced]
                if produced == 0 && result == Z_OK { result = Z_BUF_ERROR }
            }
        }
        guard output.count <= limit else { throw Failure(code: result, limit: limit) }
        guard result == Z_STREAM_END else { throw Failure(code: result) }
        return output
    }
}
