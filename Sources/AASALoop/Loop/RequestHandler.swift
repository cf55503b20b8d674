/// What a loop hands each request to (FlyingFox keeps its socket layer apart from HTTP in
/// the same way): the loop owns descriptors, TLS, deadlines, buffers and HTTP/1.1 framing,
/// and counts and logs every answer; a handler answers one parsed request through the
/// writer it is given and says what it did. The loop knows no handler: the sites'
/// (`AASASiteServing`'s `SiteHandler`) and the admin listener's (in AASAServer) are its type
/// parameter. The path of a request runs one way (docs/ARCHITECTURE.md): loop → handler →
/// outcome → loop.
///
/// The loop holds its handler inline and calls it `mutating`, so a handler that is a struct
/// reaches its own fields through `inout self`: no run-time exclusivity check per access in
/// its module, where they stay on (docs/ARCHITECTURE.md, "Threads").
public protocol RequestHandler {
    /// What a reload publishes to this handler (`ContentBox`), handed over by `serve`; `Never`
    /// for a handler that answers from nothing published.
    associatedtype Content: LoopContent = Never

    /// The labels of the paths this handler's answers are counted under
    /// (`RequestOutcome.path` is an index into them; any other path counts as `other`).
    static var countedPaths: [String] { get }

    /// How many kinds of answer this handler counts apart (`RequestOutcome.kind`).
    static var countedKinds: Int { get }

    /// Answers one well-formed request head (its bytes are `buffer`'s) through `writer`.
    mutating func respond(
        to head: HTTPRequestHead, in buffer: UnsafeBufferPointer<UInt8>, from client: RequestClient,
        writer: ResponseWriter
    ) -> RequestOutcome

    /// The loop answers from `content` from now on: called when the loop is made and at the
    /// first wake-up after each publication. Whatever the handler derived from older content
    /// goes.
    mutating func serve(_ content: Content)
}

extension RequestHandler {
    package static var countedPaths: [String] { [] }
    package static var countedKinds: Int { 0 }
}

extension RequestHandler where Content == Never {
    /// Nothing is ever published to such a handler, so this is never called.
    package mutating func serve(_ content: Never) {}
}
