import AASALoop
import AASASystem
import AASATransport
import Foundation

extension StatusPage {
    /// The certificates soonest to expire (at most `certificateRows`), which one clients
    /// without a known name get, and the load's certificate problems.
    static func certificatesSection(_ store: CertificateStore, snapshot: ServerSnapshot) -> String {
        var html =
            "<h2>Certificates</h2>\n<table "
            + "id=\"certificates\"><tr><th>Folder</th><th>Names</th><th>Expires</th></tr>\n"
        let now = Int(time(nil))
        for certificate in store.soonestToExpire(certificateRows) {
            let days = CertificateStore.daysLeft(certificate.notAfter, now: now)
            let marker = days < 14 ? "warn" : "ok"
            let isDefault = certificate.folder == store.defaultCertificate?.folder ? " (default)" : ""
            html +=
                "<tr><td>\(escape((certificate.folder as NSString).lastPathComponent))\(isDefault)</td>"
                + "<td>\(escape(certificate.names.joined(separator: ", ")))</td>"
            html +=
                "<td class=\"\(marker)\">\(escape(HTTPDate.format(certificate.notAfter))) (\(days) "
                + "days)</td></tr>\n"
        }
        html += "</table>\n"
        html += defaultCertificateLine(store)
        if store.certificates.count > certificateRows {
            html += "<p>and \(store.certificates.count - certificateRows) more certificates expiring later.</p>\n"
        }
        html += cacheLine(store.cache.counts)
        let certificateProblems = snapshot.certificateProblems
        if !certificateProblems.isEmpty {
            let lines = certificateProblems.map(\.rendered).joined(separator: "\n")
            html += "<pre class=\"warn\">\(escape(lines))</pre>\n"
        }
        return html
    }

    /// How many certificates are loaded for handshakes, and those that could not be.
    static func cacheLine(_ counts: CertificateCache.Counts) -> String {
        var html =
            "<p id=\"certificate-cache\">Loaded for handshakes: \(counts.loaded) certificates, about "
            + "\(counts.bytes / 1024) KiB of \(counts.budget / 1024) KiB (<code>--certificate-cache-mib</code>); "
            + "\(counts.loads) loads, \(counts.evictions) dropped for the budget. Each is loaded when its name is "
            + "first asked for.</p>\n"
        if !counts.failures.isEmpty {
            let lines = counts.failures.map { "CERT004 \($0.path): \($0.message)" }.joined(separator: "\n")
            html += "<p class=\"bad\">Certificates that could not be loaded:</p><pre>\(escape(lines))</pre>\n"
        }
        return html
    }

    /// What a handshake without SNI, or for a name no certificate covers, gets
    /// (`--default-certificate`).
    static func defaultCertificateLine(_ store: CertificateStore) -> String {
        guard let chosen = store.defaultCertificate else {
            return
                "<p id=\"default-certificate\">Default certificate: none. A handshake without SNI, or for a name no "
                + "certificate covers, is refused with the alert <code>unrecognized_name</code> "
                + "(<code>--default-certificate off</code>).</p>\n"
        }
        let folder = (chosen.folder as NSString).lastPathComponent
        return
            "<p id=\"default-certificate\">Default certificate: <b>\(escape(folder))</b> "
            + "(\(escape(chosen.names.joined(separator: ", ")))), presented to a handshake without SNI or for a name "
            + "no certificate covers (<code>--default-certificate</code>).</p>\n"
    }
}
