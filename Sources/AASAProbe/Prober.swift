import AASASignedData
import AASASites
import AASASystem
import AASATransport
import AssociationKit
import Foundation
@preconcurrency import Glibc

/// Checks a live deployment the way Apple's CDN and Android's verifier fetch it (HTTPS,
/// no redirect, application/json): TCP and TLS, the certificate for the name, each file's status (a redirect is a
/// failure), content type, size, validity, both Apple paths alike, an unusual User-Agent
/// answered the same, and optionally Apple's CDN copy and Google's view (`Prober+Google`). For a
/// URL with a path it says which app opens it on each platform, and why (`Prober+URL`).
public struct Prober: Sendable {
    /// Where Google's Digital Asset Links API is asked (`probe --google`), and the client for it.
    public struct GoogleQuestion: Sendable {
        public var url: String
        public var client: HTTPSClient

        public init(url: String = GoogleListResponse.defaultURL, client: HTTPSClient) {
            self.url = url
            self.client = client
        }
    }

    public let client: HTTPSClient
    /// Dial here instead of the domain (staging hosts not yet in DNS).
    public let connectTo: (String, Int)?
    public let checkCDN: Bool
    /// nil: Google is not asked.
    public let google: GoogleQuestion?

    package static let userAgent = "aasa-server-probe/\(Version.current)"
    package static let unusualUserAgent = "AASA-Bot/1.0.0 (aasa-server probe)"
    public static let cdnHost = "app-site-association.cdn-apple.com"

    public init(client: HTTPSClient, connectTo: (String, Int)?, checkCDN: Bool, google: GoogleQuestion? = nil) {
        self.client = client
        self.connectTo = connectTo
        self.checkCDN = checkCDN
        self.google = google
    }

    /// `target` is a domain or a URL; its host and port are probed, and a URL's path is
    /// answered per platform.
    public func probe(_ target: String) -> ProbeReport {
        // Split as every URL and Host header is (AssociationKit's `URLParts`).
        guard let parts = URLParts(target), !parts.host.isEmpty else {
            var report = ProbeReport(domain: target)
            report.add("target", .fail, "not a domain, HOST:PORT or URL: \(target)")
            return report
        }
        let host = parts.host.lowercased()
        let port = parts.port ?? 443
        var report = ProbeReport(domain: host)
        let address = connectTo ?? (host, port)
        let apple = fetch(host, port, address, "/.well-known/apple-app-site-association", Self.userAgent)
        guard case .success(let (connection, wellKnown)) = apple else {
            if case .failure(let failure) = apple { recordConnectionFailure(failure, address: address, into: &report) }
            return report
        }
        report.add("tcp", .pass, "connected to \(address.0):\(address.1)")
        report.add("tls", .pass, "\(connection.protocolVersion)" + (connection.alpn.map { ", ALPN \($0)" } ?? ""))
        checkCertificate(connection, host: host, into: &report)
        let validBody = checkFile("apple-app-site-association", wellKnown, kind: .apple, host: host, into: &report)

        switch fetch(host, port, address, "/apple-app-site-association", Self.userAgent) {
        case .success(let (_, root)):
            if root.status == 200 && root.body == wellKnown.body {
                report.add("root path", .pass, "/apple-app-site-association serves the same bytes")
            } else if (300..<400).contains(root.status) {
                report.add(
                    "root path", .fail,
                    "/apple-app-site-association redirects (\(root.status)) to \(location(root)); "
                        + "Apple never follows redirects"
                )
            } else if root.status == 200 {
                report.add(
                    "root path", .fail,
                    "/apple-app-site-association serves different bytes than /.well-known/apple-app-site-association")
            } else {
                report.add(
                    "root path", .warn, "/apple-app-site-association answers \(root.status) (only old clients read it)")
            }
        case .failure(let failure):
            report.add("root path", .warn, failure.message)
        }

        switch fetch(host, port, address, "/.well-known/apple-app-site-association", Self.unusualUserAgent) {
        case .success(let (_, other)):
            let same = other.status == wellKnown.status && other.body == wellKnown.body
            report.add(
                "user agent", same ? .pass : .fail,
                same
                    ? "\"\(Self.unusualUserAgent)\" gets the same answer"
                    : "\"\(Self.unusualUserAgent)\" gets \(other.status) and other bytes; Apple's CDN fetches with "
                        + "its own agent (TN3155)"
            )
        case .failure(let failure):
            report.add("user agent", .fail, "\"\(Self.unusualUserAgent)\": \(failure.message)")
        }

        var files = ServedFiles(
            apple: validBody.map(ServedFiles.Copy.json)
                ?? .missing("the origin serves no valid apple-app-site-association (see above)"),
            android: .missing("the origin serves no valid assetlinks.json (see above)"))
        switch fetch(host, port, address, "/.well-known/assetlinks.json", Self.userAgent) {
        case .success(let (_, android)):
            if android.status == 404 {
                files.android = .missing("/.well-known/assetlinks.json is 404")
                report.add(
                    "assetlinks.json", .warn, "/.well-known/assetlinks.json is 404 (fine if there is no Android app)")
            } else {
                if let json = checkFile("assetlinks.json", android, kind: .android, host: host, into: &report) {
                    files.android = .json(json)
                }
            }
        case .failure(let failure):
            report.add("assetlinks.json", .fail, failure.message)
        }

        // The other kinds the table marks for probe are checked when the site has them: a 404
        // is no finding.
        for row in WellKnownFile.served where row.probed && row.kind != .apple && row.kind != .android {
            let kind = row.kind
            switch fetch(host, port, address, row.paths[0], Self.userAgent) {
            case .success(let (_, response)) where response.status != 404:
                _ = checkFile(kind.rawValue, response, kind: kind, host: host, into: &report)
            case .success: break
            case .failure(let failure): report.add(kind.rawValue, .fail, failure.message)
            }
        }

        if checkCDN {
            let cdnAddress = connectTo ?? (Self.cdnHost, 443)
            // Through --connect-to the answer is not Apple's: say where it came from.
            let asked = connectTo.map { " (asked \($0.0):\($0.1) as \(Self.cdnHost), through --connect-to)" } ?? ""
            // Apple's copy is only worth comparing when it comes from Apple: the chain must verify.
            switch fetch(Self.cdnHost, 443, cdnAddress, "/a/v1/\(host)", Self.userAgent, requireVerified: true) {
            case .success(let (_, cdn)):
                let failed =
                    "Apple's CDN answers \(cdn.status)" + (cdn.header("apple-failure-reason").map { ": \($0)" } ?? "")
                let json = SignedContent.json(cdn.body)
                files.cdn = cdn.status == 200 ? .json(json) : .missing(failed)
                if cdn.status != 200 {
                    report.add("apple cdn", .fail, failed + asked)
                } else if let validBody, let copy = MeaningFingerprint(json: json),
                    copy == MeaningFingerprint(json: validBody)
                {
                    // Compared by meaning, as the server's CDN watch compares (whitespace, key
                    // order, escapes and gzip do not count).
                    report.add("apple cdn", .pass, "Apple's CDN copy means the same as the origin's" + asked)
                } else {
                    report.add(
                        "apple cdn", .warn,
                        "Apple's CDN copy differs from the origin's (it refreshes within about 24 h; devices check "
                            + "about weekly)"
                            + asked)
                }
            case .failure(let failure):
                files.cdn = .missing("cannot reach Apple's CDN")
                report.add("apple cdn", .fail, "cannot reach Apple's CDN: \(failure.message)" + asked)
            }
        }
        if let google { files.google = askGoogle(google, host: host, origin: files.android, into: &report) }
        // A path other than "/" is a question about that URL.
        if !parts.pathAndQuery.isEmpty && parts.pathAndQuery != "/" {
            answer(parts.scheme == nil ? "https://" + target : target, files, into: &report)
        }
        return report
    }

    private func fetch(
        _ host: String, _ port: Int, _ address: (String, Int), _ path: String, _ agent: String,
        requireVerified: Bool = false
    ) -> Result<(HTTPSClient.Connection, HTTPClientResponse), HTTPClientFailure> {
        client.fetch(
            host: host, port: port, address: address, path: path, userAgent: agent, requireVerified: requireVerified)
    }

    private func recordConnectionFailure(
        _ failure: HTTPClientFailure, address: (String, Int), into report: inout ProbeReport
    ) {
        switch failure.stage {
        case .resolve, .tcp:
            report.add("tcp", .fail, failure.message)
        case .tls:
            report.add("tcp", .pass, "connected to \(address.0):\(address.1)")
            report.add("tls", .fail, failure.message)
        case .http:
            report.add("tcp", .pass, "connected to \(address.0):\(address.1)")
            report.add("tls", .pass, "handshake completed")
            report.add("apple-app-site-association", .fail, failure.message)
        }
    }

    private func checkCertificate(_ connection: HTTPSClient.Connection, host: String, into report: inout ProbeReport) {
        let days = CertificateStore.daysLeft(connection.certificateNotAfter)
        if let error = connection.verifyError {
            report.add(
                "certificate", .fail,
                "not trusted for \(host): \(error) (names: \(connection.certificateNames.joined(separator: ", ")))")
        } else if days < 14 {
            report.add("certificate", .warn, "valid for \(host), but expires in \(days) days")
        } else {
            report.add("certificate", .pass, "valid for \(host) and trusted; expires in \(days) days")
        }
    }

    /// Status, type, size and content of one file; returns its JSON when it validated (a
    /// signed file's content, docs/association-files.md, "Signed files").
    private func checkFile(
        _ name: String, _ response: HTTPClientResponse, kind: FileCheck.Kind, host: String,
        into report: inout ProbeReport
    ) -> [UInt8]? {
        guard response.status == 200 else {
            if (300..<400).contains(response.status) {
                report.add(
                    name, .fail,
                    "redirects (\(response.status)) to \(location(response)); redirects are never followed"
                )
            } else {
                report.add(name, .fail, "answers \(response.status), not 200")
            }
            return nil
        }
        report.add("\(name) status", .pass, "200, no redirect")
        let type = response.header("content-type") ?? "(none)"
        // A signed file goes as application/pkcs7-mime, the type of Apple's iOS 8 instructions.
        let expected =
            kind == .apple && SignedEnvelope.encoding(of: response.body) != nil
            ? "application/pkcs7-mime" : kind.file.contentType
        let essence = { (type: String) in
            type.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let typeMatches = essence(type) == essence(expected)
        report.add(
            "\(name) content type", typeMatches ? .pass : .fail, typeMatches ? type : "\(type), not \(expected)")
        let size = response.body.count
        let fits = size <= kind.file.sizeLimit
        let encoded = response.header("content-encoding").map { ", \(response.wireBytes) sent as \($0)" } ?? ""
        report.add(
            "\(name) size", fits ? .pass : .fail,
            fits
                ? "\(size) bytes\(encoded)"
                : "\(size) bytes, over \(kind.file.sizeLimit) bytes; readers ignore it")
        // The size has its own line above; the body is at most HTTPClientResponse.bodyLimit.
        let signing = SignedFileContext(
            reader: CMSReader.reader(trusting: client.caFile.map(TrustAnchors.file) ?? .system), domain: host,
            now: Int(time(nil)))
        let checked = FileCheck.check(response.body, as: kind, signing: signing)
        let (found, omitted, json) = (checked.diagnostics, checked.omitted, checked.json)
        let diagnostics = found.filter { $0.code != .fileTooLarge && $0.code != .wellKnownTooLarge }
        let problems = DiagnosticLines.render(diagnostics, path: name, omitted: omitted)
        if diagnostics.hasErrors || omitted.errors > 0 {
            report.add("\(name) content", .fail, "invalid:\n" + problems)
            return nil
        }
        report.add(
            "\(name) content", problems.isEmpty ? .pass : .warn,
            problems.isEmpty ? "valid" : "valid, with warnings:\n" + problems)
        return json
    }

    /// Where a redirect points, for the report.
    private func location(_ response: HTTPClientResponse) -> String {
        response.header("location") ?? "?"
    }
}
