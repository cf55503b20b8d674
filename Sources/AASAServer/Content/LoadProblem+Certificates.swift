import AASASites
import AASATransport

extension LoadProblem {
    /// A certificate folder's problem with its stable code (docs/codes.md, "Load problems").
    init(_ problem: CertificateProblem) {
        self.init(problem.path, Self.code(problem.kind), problem.severity, problem.message)
    }

    private static func code(_ kind: CertificateProblem.Kind) -> Code {
        switch kind {
        case .expired: .certificateExpired
        case .expiring: .certificateExpiring
        case .withoutNames: .certificateWithoutNames
        case .unusable: .certificateUnusable
        case .noCertificates: .noCertificates
        case .noDefaultCertificate: .noDefaultCertificate
        case .rsaKey: .certificateRSAKey
        }
    }
}
