/// How far the search for the end of a request head has got, kept between reads so that
/// each byte is scanned once however the head is split (a client trickling a head byte by
/// byte, or streaming blank lines, costs linear work, not a rescan per read). Offsets are
/// relative to where the head starts, so the buffer may move in front of it.
struct HeadScan {
    /// Empty-line bytes before the request line (RFC 9112 §2.2), counted toward its limit.
    var skipped = 0
    /// The request line's line feed, or -1 while it has not arrived.
    var requestLineEnd = -1
    /// Where the line being searched for its end starts.
    var lineStart = 0
    /// No line feed lies between `lineStart` and here.
    var scanned = 0
}
