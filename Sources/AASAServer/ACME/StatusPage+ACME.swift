import AASAACME
import AASATransport

extension StatusPage {
    /// The certificates ACME keeps: names, issuer, expiry, next attempt and the last error,
    /// failures first, bounded like the certificates table.
    static func acmeSection(_ manager: ACMEManager, now: Int) -> String {
        let managed = manager.managed(now: now).sorted { ($0.lastError == nil ? 1 : 0) < ($1.lastError == nil ? 1 : 0) }
        var html =
            "<h2>Automatic certificates</h2>\n<p>ACME directory \(escape(manager.settings.directory)); "
            + "\(managed.count) certificates kept.</p>\n<table id=\"acme\"><tr><th>Names</th><th>State</th>"
            + "<th>Issuer</th><th>Expires</th><th>Next renewal or attempt</th><th>Last error</th></tr>\n"
        for certificate in managed.prefix(certificateRows) {
            let expiry = certificate.notAfter.map { HTTPDate.format($0) } ?? "—"
            let next = certificate.nextAttempt.map { HTTPDate.format($0) } ?? "now"
            let marker = certificate.lastError == nil ? "ok" : "bad"
            html +=
                "<tr><td>\(escape(certificate.names.joined(separator: ", ")))"
                + "\(certificate.onDemand ? " (on demand)" : "")</td>"
                + "<td class=\"\(marker)\">\(certificate.state.rawValue)</td>"
                + "<td>\(escape(certificate.issuer ?? "—"))</td>"
                + "<td>\(escape(expiry))</td><td>\(escape(next))</td>"
                + "<td class=\"bad\">\(escape(certificate.lastError ?? ""))"
                + "\(certificate.failures > 0 ? " (\(certificate.failures) failures)" : "")</td></tr>\n"
        }
        html += "</table>\n"
        if managed.count > certificateRows {
            html += "<p>and \(managed.count - certificateRows) more.</p>\n"
        }
        return html
    }
}
