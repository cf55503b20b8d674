import AASALoop

/// Whole answers to the usual request (GET, 200) for the files one loop served this second:
/// status line, `Date`, the file's headers, the connection header and the body in one
/// buffer, built once and then sent from here by every request for that file that second,
/// with no copy (h2o's precomputed responses; docs/serving.md, "The request path").
///
/// Direct-mapped by the address of the variant's bytes and the connection header: an entry
/// is rebuilt when the second changes or another file takes its slot, and every entry is
/// dropped when the loop moves to a new snapshot (a freed file's address can come back for
/// another file). Larger responses are assembled in the output buffer each time: their send
/// costs far more than the copy.
final class ResponseCache {
    static let slotCount = 64
    static let largestResponse = 16 * 1024

    private struct Slot {
        /// The variant's address plus the connection header; 0 when empty.
        var key: UInt = 0
        var second = -1
        var memory: UnsafeMutableRawPointer?
        var capacity = 0
        var count = 0
    }

    private let slots: UnsafeMutablePointer<Slot>

    init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Slot(), count: Self.slotCount)
    }

    deinit {
        for index in 0..<Self.slotCount { slots[index].memory?.deallocate() }
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
    }

    /// Forgets every response (their memory is kept for the next ones).
    func removeAll() {
        for index in 0..<Self.slotCount { slots[index].key = 0 }
    }

    /// The whole 200 response with `variant`'s body for `writer`'s connection header.
    func response(_ variant: PreparedFile.Variant, _ writer: ResponseWriter) -> UnsafeRawBufferPointer? {
        response(variant, writer.connectionHeader, dates: writer.dates, output: writer.output)
    }

    /// The whole 200 response with `variant`'s body, from the slot or built into it; nil
    /// when it would be larger than `largestResponse`. A response `output` borrowed from the
    /// slot is copied into it before the slot changes.
    func response(
        _ variant: PreparedFile.Variant, _ connection: ConnectionHeader, dates: DateCache, output: OutputBuffer
    ) -> UnsafeRawBufferPointer? {
        let address = variant.storage.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        // Array storage is 16-byte aligned, which leaves the low bits for the header.
        let key = address | UInt(connection.rawValue + 1)
        let slot = slots + Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 58)
        if slot.pointee.key == key && slot.pointee.second == dates.second, let memory = slot.pointee.memory {
            return UnsafeRawBufferPointer(start: memory, count: slot.pointee.count)
        }
        var count = variant.body.count
        ResponseHead.head200(variant, connection, dates: dates) { count += $0.count }
        guard count <= Self.largestResponse else { return nil }
        output.settle()
        if slot.pointee.capacity < count {
            slot.pointee.memory?.deallocate()
            slot.pointee.memory = .allocate(byteCount: count, alignment: 16)
            slot.pointee.capacity = count
        }
        guard let memory = slot.pointee.memory else { return nil }
        var written = 0
        func put(_ source: UnsafeRawBufferPointer) {
            guard let start = source.baseAddress else { return }
            (memory + written).copyMemory(from: start, byteCount: source.count)
            written += source.count
        }
        ResponseHead.head200(variant, connection, dates: dates, put)
        variant.body.withUnsafeBytes(put)
        slot.pointee = Slot(
            key: key, second: dates.second, memory: memory, capacity: slot.pointee.capacity, count: count)
        return UnsafeRawBufferPointer(start: memory, count: count)
    }
}
