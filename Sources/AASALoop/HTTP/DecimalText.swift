/// A non-negative integer's decimal digits, written on the stack: Content-Length values and the
/// access log's numbers without a String per request.
enum DecimalText {
    /// Calls `body` with the digits of `value` (0 and up).
    @inline(__always)
    static func withDigits(_ value: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = max(0, value)
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            body(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(digits)[start...]))
        }
    }
}
