import AssociationKit

@testable import AASALoop
@testable import AASAProbe
@testable import AASAServer
@testable import AASASiteServing
@testable import AASASites
@testable import AASASystem
@testable import AASATransport

/// The fuzz targets: each takes libFuzzer's bytes and runs one parser, then what the
/// project computes from its result, checking the invariants that must hold for any input.
enum FuzzTargets {
    nonisolated(unsafe) static var selected: (@Sendable (UnsafeBufferPointer<UInt8>) -> Void)?

    /// JSON parse, decode and validate as an apple-app-site-association; every diagnostic
    /// rendered as `validate` prints it.
    @Sendable static func apple(_ data: UnsafeBufferPointer<UInt8>) {
        let report = AssociationFileValidator.validate(Array(data))
        check(report.diagnostics.count <= OmittedDiagnostics.limit, "more diagnostics kept than the limit")
        check(
            report.isValid == (report.file != nil && !report.diagnostics.hasErrors && report.omitted.errors == 0),
            "validity")
        _ = DiagnosticLines.render(report.diagnostics, path: "fuzz", omitted: report.omitted, includeInfo: true)
    }

    /// The same for assetlinks.json.
    @Sendable static func android(_ data: UnsafeBufferPointer<UInt8>) {
        let report = AssetLinksValidator.validate(Array(data))
        check(report.diagnostics.count <= OmittedDiagnostics.limit, "more diagnostics kept than the limit")
        _ = DiagnosticLines.render(report.diagnostics, path: "fuzz", omitted: report.omitted, includeInfo: true)
    }

    /// The other platform's file a fuzzed one is compared with (`PlatformComparison`).
    static let partnerApple = AssociationFileValidator.validate(
        Array(
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a/*", "exclude": true}, {"/": "*"}]}]}}"#
                .utf8)
    ).file
    static let partnerAndroid = AssetLinksValidator.validate(
        Array(
            #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}, "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "/a/*", "exclude": true}, {"/": "*"}]}}}, {"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.other", "sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]"#
                .utf8)
    ).file

    /// A small association file, a NUL byte, then URLs one per line: every URL decided for
    /// every app (Apple's rules), and for the file read as assetlinks.json (Android's). The
    /// file is also compared with a fixed file of the other platform, as `validate` compares
    /// a site's two files.
    @Sendable static func matcher(_ data: UnsafeBufferPointer<UInt8>) {
        let split = data.firstIndex(of: 0) ?? data.count
        let file = Array(data[..<split])
        let urls =
            split < data.count
            ? data[(split + 1)...].split(separator: 10).map { String(decoding: $0, as: UTF8.self) } : []
        if let apple = AssociationFileValidator.validate(file).file {
            if let partnerAndroid {
                _ = PlatformComparison.compare(apple: apple, android: partnerAndroid, host: "example.com")
            }
            let matcher = AssociationMatcher(file: apple)
            for text in urls {
                guard let url = try? MatchURL(text) else { continue }
                let all = matcher.decideAll(url)
                for (decision, appID) in zip(all, matcher.appIDs) {
                    check(
                        matcher.decide(url, appID: appID).outcome == decision.outcome, "decideAll and decide disagree")
                }
            }
        }
        if let android = AssetLinksValidator.validate(file).file {
            if let partnerApple {
                _ = PlatformComparison.compare(apple: partnerApple, android: android, host: "example.com")
            }
            let matcher = AssetLinksMatcher(file: android)
            for text in urls {
                guard let url = try? MatchURL(text) else { continue }
                _ = matcher.decideAll(url, domain: nil)
            }
        }
    }

    /// The request parser over the bytes split into chunks (sizes from the first byte), as
    /// a socket delivers them: the outcome never depends on the split. Then, for each
    /// complete head, what the server computes from it.
    @Sendable static func http(_ data: UnsafeBufferPointer<UInt8>) {
        guard let seed = data.first else { return }
        let input = UnsafeBufferPointer(rebasing: data[1...])
        var limits = HTTPLimits()
        limits.requestLineBytes = 512
        limits.headerBytes = 1024
        limits.headerCount = 16
        let parser = HTTPRequestParser(limits: limits)
        var start = 0
        var accessLog = (text: AccessLog(format: .text, enabled: true), json: AccessLog(format: .json, enabled: true))
        var head = HTTPRequestHead()
        var scratchHead = HTTPRequestHead()
        while start < input.count {
            let whole = parser.parse(input, from: start, into: &head)
            // The same bytes arriving in pieces: incomplete until enough has arrived, then the same answer.
            var arrived = start
            var step = Int(seed % 7) + 1
            while arrived < input.count {
                arrived = min(input.count, arrived + step)
                step = step % 13 + Int(seed >> 4) + 1
                let partial = parser.parse(
                    UnsafeBufferPointer(rebasing: input[..<arrived]), from: start, into: &scratchHead)
                if case .incomplete = partial { continue }
                check(
                    summary(partial) == summary(whole),
                    "chunking changed the outcome: \(summary(partial)) vs \(summary(whole))")
                break
            }
            guard case .complete(let end) = whole else { return }
            check(end > start && end <= input.count, "head end out of range")
            serve(head, input, &accessLog.text)
            serve(head, input, &accessLog.json)
            start = end
        }
    }

    /// The table of served paths `SiteHandler` holds, made once (read only after that).
    nonisolated(unsafe) private static let servedPaths = ServedPathTable()

    /// What `SiteHandler.respond` computes from a parsed head before it looks at any site.
    private static func serve(_ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>, _ log: inout AccessLog) {
        guard let target = RequestTarget(buffer, head: head) else { return }
        let host = target.hostRange.flatMap { HostName.key(buffer, $0) }
        if let host { check(!host.contains("/") && !host.contains(".."), "a host key that could name a path: \(host)") }
        _ = servedPaths.match(buffer, target.pathRange)
        if let range = head.ifNoneMatchRange {
            _ = RequestConditions.noneMatch(
                buffer, range, lines: head.ifNoneMatchLines, identity: Array("\"abc\"".utf8)[...], gzip: nil)
        }
        if let range = head.ifModifiedSinceRange { _ = HTTPDate.parse(UnsafeBufferPointer(rebasing: buffer[range])) }
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        let slice = { (range: Range<Int>?) in range.map { UnsafeBufferPointer(rebasing: buffer[$0]) } ?? empty }
        log.record(
            AccessLog.Entry(
                client: Array("127.0.0.1".utf8), host: slice(target.hostRange), method: slice(head.methodRange),
                path: slice(head.targetRange), isHTTP11: head.isHTTP11, status: 200, bytes: 10,
                durationNanoseconds: 1_000,
                userAgent: slice(head.userAgentRange)),
            time: Array("2026-11-23T00:00:00Z".utf8))
        if log.buffer.count > 1 << 20 { log = AccessLog(format: log.format, enabled: true) }
    }

    private static func summary(_ result: HTTPParseResult) -> String {
        switch result {
        case .complete(let end): "complete at \(end)"
        case .incomplete: "incomplete"
        case .failure(let status): "failure \(status.rawValue)"
        }
    }

    /// The probe's response reader: the whole response read at once and closed, and the
    /// same bytes still open and cut at a length the last byte picks (so every length gets
    /// its turn across inputs); a response complete early stays the same with more bytes.
    @Sendable static func probe(_ data: UnsafeBufferPointer<UInt8>) {
        let raw = Array(data)
        let closed: HTTPClientResponse? = (try? HTTPClientResponse.parse(raw, closed: true)) ?? nil
        if let closed { check(closed.body.count <= HTTPClientResponse.bodyLimit, "a body past the bound") }
        guard let last = raw.last else { return }
        let length = raw.count * Int(last) / 255
        guard let early = (try? HTTPClientResponse.parse(Array(raw[..<length]), closed: false)) ?? nil else { return }
        check(early.body.count <= HTTPClientResponse.bodyLimit, "a body past the bound")
        let open: HTTPClientResponse? = (try? HTTPClientResponse.parse(raw, closed: false)) ?? nil
        check(open?.body == early.body, "more bytes changed a complete response")
    }

    /// The config file reader, on any bytes.
    @Sendable static func config(_ data: UnsafeBufferPointer<UInt8>) {
        var configuration = ServerConfiguration()
        do {
            try configuration.applyFile(contents: Array(data), path: "/fuzz/aasa-server.json")
            check(configuration.limits.requestLineBytes >= 1 && configuration.workers >= 0, "limits out of range")
        } catch {
            check(!error.description.isEmpty, "a config problem without a message")
        }
    }

    static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError("invariant failed: \(message())") }
    }
}
