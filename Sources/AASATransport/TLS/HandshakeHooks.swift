/// What a handshake asks beyond the certificate store, answered by ACME
/// (docs/ARCHITECTURE.md, "Automatic certificates"): the TLS-ALPN-01 validation certificate
/// of a name being validated, and whether a certificate for an unknown name is on its way
/// (on-demand issuance; the handshake then pauses until a new store arrives). Called on the
/// event loops, so both answer at once and never block: a validation certificate another
/// replica posted is `pending` while it is looked up, and the handshake pauses until the loop
/// is woken.
package protocol HandshakeHooks: AnyObject, Sendable {
    /// `source` is the client's address as `ClientSource.key` makes it: the store's lookups
    /// and the on-demand ask share their turns between sources.
    func validationContext(for name: String, source: UInt64) -> ValidationAnswer
    func certificateWanted(for name: String, source: UInt64) -> Bool
}

/// A TLS-ALPN-01 validation certificate for a name: held, being looked up, or none.
package enum ValidationAnswer {
    case context(TLSContext)
    case pending
    case none
}
