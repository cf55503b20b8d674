/// What a loop hands a connection's bytes to (FlyingFox keeps its socket layer apart from
/// HTTP in the same way): the loop owns descriptors, TLS, deadlines and buffers; a handler
/// turns bytes into responses in the loop's output. Two exist: the sites' (`SiteHandler`)
/// and the admin listener's (in AASAServer). Both speak HTTP/1.1 through `serveHTTP1`.
package protocol ConnectionHandler: AnyObject {
    /// Answers the complete requests at the start of `bytes` while the connection's output
    /// is under its high-water mark and its share of the turn lasts; returns where the
    /// unconsumed bytes start.
    func serve(
        _ bytes: UnsafeBufferPointer<UInt8>, on connection: Connection, loop: EventLoop<Self>,
        budget: inout TurnBudget
    ) -> Int

    /// The loop took a new snapshot: whatever was derived from the old one goes.
    func snapshotChanged()
}

/// A handler answering one HTTP/1.1 request head at a time.
package protocol HTTP1Handler: ConnectionHandler {
    /// Answers one well-formed request head; its bytes are `buffer`'s.
    func respond(
        to head: HTTPRequestHead, in buffer: UnsafeBufferPointer<UInt8>, on connection: Connection,
        loop: EventLoop<Self>)
}

extension HTTP1Handler {
    package func serve(
        _ bytes: UnsafeBufferPointer<UInt8>, on connection: Connection, loop: EventLoop<Self>,
        budget: inout TurnBudget
    ) -> Int {
        loop.serveHTTP1(bytes, on: connection, budget: &budget)
    }
}
