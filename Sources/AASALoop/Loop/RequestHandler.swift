/// What a loop hands each request to (FlyingFox keeps its socket layer apart from HTTP in
/// the same way): the loop owns descriptors, TLS, deadlines, buffers and HTTP/1.1 framing,
/// and counts and logs every answer; a handler answers one parsed request through the
/// writer it is given and says what it did. Two exist: the sites' (`SiteHandler`) and the
/// admin listener's (in AASAServer). The path of a request runs one way
/// (docs/ARCHITECTURE.md): loop → handler → outcome → loop.
package protocol RequestHandler: AnyObject {
    /// Answers one well-formed request head (its bytes are `buffer`'s) through `writer`.
    func respond(
        to head: HTTPRequestHead, in buffer: UnsafeBufferPointer<UInt8>, from client: RequestClient,
        writer: ResponseWriter
    ) -> RequestOutcome

    /// The loop serves `table` with `settings` from now on: called when the loop is made and
    /// after each reload. Whatever the handler derived from an older table goes.
    func serve(_ table: SiteTable, settings: LoopSettings)
}
