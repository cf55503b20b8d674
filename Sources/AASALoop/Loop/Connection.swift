import AASATransport
@preconcurrency import Glibc

/// One client connection, owned by one event loop and never touched by another thread.
package final class Connection {
    enum Phase {
        /// The TLS handshake is under way.
        case handshaking
        /// Waiting for a request (between requests, or before the first).
        case idle
        /// Part of a request head has arrived.
        case readingHead
        /// A response is being written and the socket is full.
        case writing
        /// An error response went out and our side is shut down; what the client still
        /// sends is read and dropped until it closes (RFC 9112 §9.6), within bounds.
        case lingering
    }

    let fd: Int32
    let generation: UInt32
    let peer: sockaddr_storage
    /// Set on connections accepted from the HTTPS listener.
    var tls: TLSSession?
    /// Added to the loop's epoll set (only once a request did not complete at accept).
    var registered = false
    /// Bytes read and not answered yet: a request head that is not complete, or requests
    /// held back while `parsePaused`. Never more than the head limits plus one read.
    var pending: [UInt8] = []
    /// How far the head at the front of `pending` has been searched (each byte once).
    var scan = HeadScan()
    /// `pending` may hold requests not yet parsed: parsing stopped at the output high-water
    /// mark or the end of this connection's share of a wake-up. Nothing more is read until
    /// they are answered, which bounds `pending`.
    var parsePaused = false
    /// The request at the front of `pending` was deferred by the handler: the connection is
    /// on the loop's parked list and is neither parsed nor read until the next wake-up.
    var awaitingAnswer = false
    /// In the loop's `WaitingRoom`, waiting for this answer, since the room's `waitTicket`.
    var waitingFor: WaitReason?
    var waitTicket: UInt64 = 0
    /// The source the room counts it under while it waits (`SourceBlocks`).
    var waitSource: UInt64 = 0
    /// Reading stopped before the socket said EAGAIN, so no new readiness event will come
    /// for what is already there: the loop must come back by itself.
    var readPending = false
    /// On the loop's list of connections to continue after the next wait.
    var yielded = false
    var output: [UInt8] = []
    var outputOffset = 0
    /// A large body still to send after `output`, from its prepared file (no copy).
    var tail = BorrowedTail()
    var phase = Phase.idle
    /// When the connection is closed unless it makes progress; set only through
    /// `EventLoop.schedule`, which keeps it in its class's `DeadlineQueue`.
    var deadline: UInt64 = 0
    var timeoutClass: TimeoutClass?
    /// Links of the deadline queue. The previous link holds no reference (no cycle, and no
    /// weak-reference cost per request): a queued connection's predecessor is queued too,
    /// held by its own predecessor or the head, and unlinking fixes both neighbours.
    unowned(unsafe) var queuePrevious: Connection?
    var queueNext: Connection?
    var closeAfterWrite = false
    /// Close through a lingering close: set with error responses, when the client may still
    /// be sending the rest of a request we refused.
    var lingerOnClose = false
    /// What lingering may still read before the connection is closed anyway.
    var lingerBudget = 0
    /// The first bytes on the HTTPS port were checked for a TLS handshake record.
    var checkedForPlainHTTP = false
    var peerClosed = false
    /// EPOLLOUT is registered (only while output is pending: a writable socket would wake the loop forever).
    var watchingWrites = false

    init(fd: Int32, generation: UInt32, peer: sockaddr_storage) {
        self.fd = fd
        self.generation = generation
        self.peer = peer
    }

    /// The peer address as logged, formatted on first use.
    var formattedClient: [UInt8]?
    var client: [UInt8] {
        if let formattedClient { return formattedClient }
        let text = Array(SocketAddress(peer).host.utf8)
        formattedClient = text
        return text
    }

    var hasPendingOutput: Bool { outputOffset < output.count || tail.bytes != nil }

    /// Bytes queued and not sent yet.
    var pendingOutputCount: Int { output.count - outputOffset + tail.count }

    /// Queues `bytes` and `next` behind what is pending: a body still pending is copied in
    /// first, since only the last body can stay borrowed.
    func enqueue(_ bytes: UnsafeRawBufferPointer, then next: BorrowedTail) {
        if let pending = tail.bytes {
            output.append(contentsOf: pending)
            tail.removeAll()
        }
        output.append(contentsOf: bytes)
        tail = next
    }

    /// Keeps what a send of `bytes` and `next` (with nothing pending before them) left:
    /// `sent` bytes went, fewer than all.
    func keep(_ bytes: UnsafeRawBufferPointer, then next: BorrowedTail, after sent: Int) {
        if sent < bytes.count { output = Array(bytes[sent...]) }
        outputOffset = 0
        tail = next
        tail.drop(sent - bytes.count)
    }

    /// `sent` bytes of the pending output went.
    func advance(by sent: Int) {
        let fromOutput = min(sent, output.count - outputOffset)
        outputOffset += fromOutput
        tail.drop(sent - fromOutput)
    }

    /// Everything was sent: an idle connection keeps no buffers (10,000 idle clients cost
    /// almost nothing).
    func releaseOutput() {
        output = []
        outputOffset = 0
        tail.removeAll()
    }

    /// Work is left that no readiness event will announce (see `parsePaused`, `readPending`).
    var wantsTurn: Bool { parsePaused || readPending }

    var eventData: UInt64 { UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd)) }
}

extension Connection {
    /// True while the TLS handshake has not finished.
    var isHandshaking: Bool { tls.map { !$0.established } ?? false }
}
