import AASAACME
import AASAStore
import AASASystem
import AASATransport

extension StatusPage {
    /// The certificates ACME keeps: names, issuer, expiry, renewal window and next check,
    /// next renewal or attempt and the last error, failures first, bounded like the
    /// certificates table.
    static func acmeSection(_ manager: ACMEManager, now: Int) -> String {
        let managed = manager.managed(now: now).sorted { ($0.lastError == nil ? 1 : 0) < ($1.lastError == nil ? 1 : 0) }
        let issuers = manager.issuers.map { issuer in
            escape(issuer.directory) + (issuer.profile.map { " (profile \(escape($0)))" } ?? "")
        }
        let health = manager.store.health
        let errors = health.errorCounts.filter { $0.count > 0 }.map { "\($0.operation.rawValue) \($0.count)" }
        var html =
            "<h2>Automatic certificates</h2>\n<p>ACME issuers, in order: \(issuers.joined(separator: ", ")); "
            + "\(managed.count) certificates kept.</p>\n"
            + "<p id=\"store\">Store shared by the replicas: \(escape(manager.store.summary)), "
            + (health.isUp
                ? "<span class=\"ok\">up</span>"
                : "<span class=\"error\">out of reach</span>: serving the certificates held, no orders until it is back")
            + (errors.isEmpty ? "" : "; errors: \(errors.joined(separator: ", "))") + ".</p>\n"
            + "<table id=\"acme\"><tr><th>Names</th><th>State</th>"
            + "<th>Issuer</th><th>Expires</th><th>Renewal window</th><th>Next check</th>"
            + "<th>Next renewal or attempt</th><th>Last error</th></tr>\n"
        for certificate in managed.prefix(certificateRows) {
            html += row(certificate, now: now)
        }
        html += "</table>\n"
        if managed.count > certificateRows {
            html += "<p>and \(managed.count - certificateRows) more.</p>\n"
        }
        return html + onDemand(manager)
    }

    /// Which on-demand names may be ordered, and the last ones refused.
    private static func onDemand(_ manager: ACMEManager) -> String {
        let settings = manager.settings
        guard settings.onDemand else { return "" }
        var rules: [String] = []
        if !settings.onDemandNames.isEmpty {
            rules.append(
                "names matching " + settings.onDemandNames.map { escape($0.description) }.joined(separator: ", "))
        }
        if let ask = settings.onDemandAsk { rules.append("names \(escape(ask)) allows") }
        var html =
            "<p id=\"acme-on-demand\">On-demand names ordered: "
            + (rules.isEmpty
                ? "<span class=\"bad\">any name a wildcard site serves</span>" : rules.joined(separator: " and "))
            + ".</p>\n"
        let refused = manager.recentlyRefused()
        if !refused.isEmpty {
            html +=
                "<p>Last refused: "
                + refused.map { "\(escape($0.name)) (\(escape($0.reason)))" }.joined(separator: ", ") + ".</p>\n"
        }
        return html
    }

    /// A site's certificate among its facts (with `--acme on`): its state as `/sites.json`
    /// names it, and unless issued the CA's problem (or the pre-flight's reason) and the next try.
    static func certificateFact(_ certificate: ManagedCertificate?, now: Int) -> String {
        guard let certificate else { return "" }
        let condition = certificate.condition(now: now)
        let marker = condition == .issued ? "ok" : condition == .ordering ? "warn" : "bad"
        var text = "<span class=\"\(marker)\">\(condition.rawValue)</span>"
        if condition == .issued, let notAfter = certificate.notAfter {
            text += " until " + escape(HTTPDate.format(notAfter))
        } else if condition != .issued {
            if let problem = certificate.lastError { text += ": " + escape(problem) }
            if certificate.state != .ordering, let next = certificate.nextAttempt {
                text += "; next try " + escape(HTTPDate.format(next))
            }
        }
        return "<div><dt>Certificate</dt><dd class=\"certificate\">\(text)</dd></div>"
    }

    private static func row(_ certificate: ManagedCertificate, now: Int) -> String {
        let expiry = certificate.notAfter.map { HTTPDate.format($0) } ?? "—"
        let next = certificate.nextAttempt.map { HTTPDate.format($0) } ?? "now"
        let window = certificate.renewalWindow.map { HTTPDate.format($0.start) + " to " + HTTPDate.format($0.end) }
        let check = certificate.nextCheck.map { HTTPDate.format($0) }
        let marker = certificate.lastError == nil ? "ok" : "bad"
        var issuer = certificate.issuer ?? "—"
        if let issuedBy = certificate.issuedBy { issuer += " via " + issuedBy }
        let names = certificate.names.joined(separator: ", ") + (certificate.onDemand ? " (on demand)" : "")
        let failures = certificate.failures > 0 ? " (\(certificate.failures) failures)" : ""
        var html = "<tr><td>\(escape(names))</td><td class=\"\(marker)\">\(certificate.status(now: now))</td>"
        html += "<td>\(escape(issuer))</td><td>\(escape(expiry))</td>"
        html += "<td>\(escape(window ?? "—"))</td><td>\(escape(check ?? "—"))</td><td>\(escape(next))"
        if certificate.renewalDeferred { html += " (renewal floor)" }
        if certificate.state == .scheduled, let nextIssuer = certificate.nextIssuer {
            html += " from \(escape(nextIssuer))"
        }
        html += "</td><td class=\"bad\">\(escape(certificate.lastError ?? ""))\(failures)</td></tr>\n"
        return html
    }
}
