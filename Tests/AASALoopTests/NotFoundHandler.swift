@testable import AASALoop

/// The smallest handler: every request gets the server's 404. What the core's tests run a
/// loop with, as the core knows no site.
struct NotFoundHandler: RequestHandler {
    mutating func respond(
        to head: HTTPRequestHead, in buffer: UnsafeBufferPointer<UInt8>, from client: RequestClient,
        writer: ResponseWriter
    ) -> RequestOutcome {
        writer.error(.notFound, for: head)
    }
}
