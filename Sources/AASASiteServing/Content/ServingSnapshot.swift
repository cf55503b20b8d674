import AASALoop
import AASATransport

/// What the sites' loops read of one load (their handler's `Content`), immutable once built:
/// the site table requests are answered from and the certificates new TLS connections start
/// with. The rest of the load
/// (every site's record, the problems, the counts) is the server's `ServerSnapshot`, which
/// holds this one and is published with it, so a reload is still one consistent state. A TLS
/// connection keeps the certificate store it began with, so an old snapshot's OpenSSL
/// contexts are freed when its last connection closes.
public final class ServingSnapshot: Sendable, LoopContent {
    public let table: SiteTable
    public let certificates: CertificateStore?

    package init(table: SiteTable, certificates: CertificateStore?) {
        self.table = table
        self.certificates = certificates
    }
}
