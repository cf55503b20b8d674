import AASAACME
import AASALoop
import AASATransport

/// What the listeners answer for ACME (docs/ARCHITECTURE.md, "Automatic certificates"):
/// HTTP-01 key authorizations (`SiteHandler+ACME.swift`), TLS-ALPN-01 validation certificates
/// and on-demand certificates for names a wildcard site serves, asked by the ClientHello
/// callback. The sites are the allow-list: a name no wildcard site serves never causes an
/// order.
package final class ACMEResponder: HandshakeHooks {
    let manager: ACMEManager
    let snapshots: SnapshotBox

    package init(manager: ACMEManager, snapshots: SnapshotBox) {
        self.manager = manager
        self.snapshots = snapshots
    }

    /// Only for a name a site serves: a stranger's name is never looked up.
    package func validationContext(for name: String, source: UInt64) -> ValidationAnswer {
        let served = snapshots.current.table.site(forHost: name) != nil
        switch manager.board.validationContext(for: name, lookUp: served, source: source) {
        case .found(let context): return .context(context)
        case .pending: return .pending
        case .absent: return .none
        }
    }

    package func certificateWanted(for name: String, source: UInt64) -> Bool {
        guard let site = snapshots.current.table.site(forHost: name), site.name.hasPrefix("*.") else { return false }
        return manager.certificateWanted(for: name, source: source)
    }

    func keyAuthorization(
        token: String, host: String, lookUp: Bool, source: UInt64
    ) -> ChallengeBoard.Answer<[UInt8]> {
        manager.board.keyAuthorization(token: token, host: host, lookUp: lookUp, source: source)
    }
}
