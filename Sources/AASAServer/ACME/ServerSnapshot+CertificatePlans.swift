import AASAACME
import AASALoop
import Foundation

extension ServerSnapshot {
    /// The certificates ACME keeps for this snapshot: one per served exact site folder, its
    /// aliases as further names (split into certificates of at most `CertificatePlan.mostNames`
    /// names); and one per on-demand name issued before (a folder under `acme/` for a name a
    /// wildcard site still serves), so those are renewed too.
    func certificatePlans(acmeFolder: String) -> [CertificatePlan] {
        var aliasesByTarget: [String: [String]] = [:]
        for (alias, target) in catalog.aliases { aliasesByTarget[target, default: []].append(alias) }
        var plans: [CertificatePlan] = []
        for (name, record) in catalog.records where record.content != nil && CertificatePlan.isOrderable(name) {
            let aliases = (aliasesByTarget[name] ?? []).filter(CertificatePlan.isOrderable).sorted()
            plans += CertificatePlan.plans(site: name, aliases: aliases)
        }
        // Certificate folders are absolute, standardized paths (`CertificateStore.pairs(below:)`).
        let prefix = URL(fileURLWithPath: acmeFolder).standardizedFileURL.path + "/"
        for certificate in certificates?.certificates ?? [] where (certificate.folder + "/").hasPrefix(prefix) {
            guard certificate.names.count == 1, let name = certificate.names.first,
                catalog.records[name] == nil, let site = table.site(forHost: name), site.name.hasPrefix("*.")
            else { continue }
            plans.append(CertificatePlan(names: [name], onDemand: true))
        }
        return plans.sorted { $0.primary < $1.primary }
    }
}
