/// The certificate a plan holds now, as the manager schedules by it: its lifetime, its
/// CertID (RFC 9773 §4.1) and whether ACME stored it (`acme/`), so that renewal information
/// is asked about it; a certificate placed by hand is never asked about.
struct HeldCertificate: Equatable {
    var certID: String?
    var folder: String
    var notBefore: Int
    var notAfter: Int
    var managed: Bool

    /// When a third of the lifetime remains: the renewal moment without renewal information.
    var thirdLeft: Int { notBefore + (notAfter - notBefore) * 2 / 3 }
}
