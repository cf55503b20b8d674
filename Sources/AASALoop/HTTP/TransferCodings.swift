/// What a request's Transfer-Encoding lines say of its framing (RFC 9112 §6.1, §6.3), read
/// element by element over every line, as one list (RFC 9110 §5.3).
package struct TransferCodings: Equatable {
    /// Some Transfer-Encoding line was sent.
    private(set) var isPresent = false
    private var chunkedLast = false
    private var chunkedCount: UInt8 = 0

    /// No line, or `chunked` last and once: a body whose length can be read. Anything else
    /// (chunked not last, chunked twice, an empty list) leaves the length unknown, so the
    /// request is refused and the connection closed (RFC 9112 §6.3).
    var isChunkedOnce: Bool { chunkedLast && chunkedCount == 1 }

    /// Goes on with one field line's value.
    mutating func read(_ buffer: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) {
        isPresent = true
        HTTPToken.forEachListElement(buffer, value) { element in
            chunkedLast = HTTPToken.equalsIgnoringCase(buffer, element, "chunked")
            // Saturates: twice is already wrong (§6.1: a sender applies chunked once).
            if chunkedLast && chunkedCount < 2 { chunkedCount += 1 }
        }
    }
}
