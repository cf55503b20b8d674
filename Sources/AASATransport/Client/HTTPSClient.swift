import AASASystem
import COpenSSL
import COpenSSLShims
import Foundation
@preconcurrency import Glibc

/// A one-request HTTPS client built on the project's OpenSSL layer, for `probe` and ACME:
/// blocking sockets with a deadline on every step, no redirect ever followed. Verification
/// is done by OpenSSL and reported (the probe must say *why* a chain fails); a caller that
/// must not talk to an unverified peer checks `Connection.verifyError` before trusting the
/// answer (`send` with `requireVerified`).
public struct HTTPSClient: Sendable {
    public struct Connection: Sendable {
        public var protocolVersion: String
        public var alpn: String?
        /// nil when the chain verified for the name.
        public var verifyError: String?
        public var certificateNames: [String]
        public var certificateNotAfter: Int
    }

    /// One request: the method, the path, extra header lines and a body.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public init(method: String = "GET", path: String, headers: [(String, String)] = [], body: [UInt8] = []) {
            self.method = method
            self.path = path
            self.headers = headers.map { (name: $0.0, value: $0.1) }
            self.body = body
        }
    }

    public let caFile: String?
    /// Trust the system's store as well as `caFile` (ACME's `--acme-directory-ca` adds a CA;
    /// the probe's `--cacert` replaces the store).
    public let systemTrust: Bool
    public let timeout: Double

    /// `timeout` is kept between a millisecond and an hour (NaN counts as 5 s), so the
    /// deadline arithmetic below cannot trap on any value a caller passes.
    public init(caFile: String?, timeout: Double, systemTrust: Bool = false) {
        self.caFile = caFile
        self.systemTrust = systemTrust || caFile == nil
        self.timeout = timeout.isNaN ? 5 : min(max(timeout, 0.001), 3600)
    }

    /// GETs the JSON at `path` from `host` (sent as SNI and Host), gzip accepted, dialling
    /// `address` (`host:port` or a `--connect-to` target).
    public func fetch(
        host: String, port: Int, address: (String, Int)? = nil, path: String, userAgent: String,
        requireVerified: Bool = false
    ) -> Result<(Connection, HTTPClientResponse), HTTPClientFailure> {
        let request = Request(
            path: path,
            headers: [("User-Agent", userAgent), ("Accept", "application/json"), ("Accept-Encoding", "gzip")])
        return send(request, host: host, port: port, address: address, requireVerified: requireVerified)
    }

    /// Sends `request` to `host` (SNI and Host) at `address`; with `requireVerified`, a
    /// chain that does not verify for the name ends the exchange before the request is sent.
    public func send(
        _ request: Request, host: String, port: Int, address: (String, Int)? = nil, requireVerified: Bool = false
    ) -> Result<(Connection, HTTPClientResponse), HTTPClientFailure> {
        let address = address ?? (host, port)
        let fd: Int32
        switch connect(address.0, address.1) {
        case .success(let socket): fd = socket
        case .failure(let failure): return .failure(failure)
        }
        defer { Posix.close(fd) }
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            return .failure(HTTPClientFailure(stage: .tls, message: "SSL_CTX_new failed"))
        }
        defer { SSL_CTX_free(context) }
        COpenSSLShims_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        if let caFile {
            guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
                return .failure(
                    HTTPClientFailure(
                        stage: .tls, message: OpenSSLError.drain("cannot load the CA file \(caFile)").description)
                )
            }
        }
        if systemTrust { SSL_CTX_set_default_verify_paths(context) }
        var protocols: [UInt8] = [8] + Array("http/1.1".utf8)
        _ = SSL_CTX_set_alpn_protos(context, &protocols, UInt32(protocols.count))
        guard let ssl = SSL_new(context) else {
            return .failure(HTTPClientFailure(stage: .tls, message: "SSL_new failed"))
        }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        COpenSSLShims_SSL_set_tlsext_host_name(ssl, host)
        SSL_set1_host(ssl, host)
        let handshake = perform(ssl, fd, deadline: deadline()) { SSL_connect($0) }
        guard handshake == .done else {
            let reason =
                handshake == .timedOut
                ? "no TLS answer within \(seconds) s" : OpenSSLError.drain("TLS handshake failed").description
            return .failure(HTTPClientFailure(stage: .tls, message: reason))
        }
        let verify = SSL_get_verify_result(ssl)
        var connection = Connection(
            protocolVersion: SSL_get_version(ssl).map { String(cString: $0) } ?? "?", alpn: nil,
            verifyError: verify == X509_V_OK ? nil : String(cString: X509_verify_cert_error_string(verify)),
            certificateNames: [], certificateNotAfter: 0)
        var alpnData: UnsafePointer<UInt8>?
        var alpnLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &alpnData, &alpnLength)
        if let alpnData, alpnLength > 0 {
            connection.alpn = String(
                decoding: UnsafeBufferPointer(start: alpnData, count: Int(alpnLength)), as: UTF8.self)
        }
        if let certificate = SSL_get1_peer_certificate(ssl) {
            connection.certificateNames = CertificateStore.dnsNames(certificate)
            connection.certificateNotAfter = CertificateStore.expiry(certificate)
            X509_free(certificate)
        }
        if requireVerified, let problem = connection.verifyError {
            return .failure(
                HTTPClientFailure(stage: .tls, message: "the certificate of \(host) does not verify: \(problem)"))
        }
        var head = "\(request.method) \(request.path) HTTP/1.1\r\nHost: \(Self.hostField(host, port: port))\r\n"
        for header in request.headers { head += "\(header.name): \(header.value)\r\n" }
        if !request.body.isEmpty || request.method == "POST" { head += "Content-Length: \(request.body.count)\r\n" }
        let bytes = Array((head + "Connection: close\r\n\r\n").utf8) + request.body
        let responseDeadline = deadline()
        let sent = bytes.withUnsafeBytes { bytes in
            perform(ssl, fd, deadline: responseDeadline) { SSL_write($0, bytes.baseAddress, Int32(bytes.count)) }
        }
        guard sent == .done else {
            let reason =
                sent == .timedOut
                ? "the request could not be sent within \(seconds) s"
                : OpenSSLError.drain("sending the request failed").description
            return .failure(HTTPClientFailure(stage: .http, message: reason))
        }
        return readResponse(ssl, fd, deadline: responseDeadline).map { (connection, $0) }
    }

    /// Reads until the response is complete, the server closes, the response breaks a rule
    /// or a bound (`HTTPResponseReader`, raw bytes included), or the deadline passes,
    /// whichever comes first. The deadline is checked after every read, so a peer that
    /// keeps sending cannot keep the exchange alive past it either.
    private func readResponse(_ ssl: OpaquePointer, _ fd: Int32, deadline: UInt64) -> Result<
        HTTPClientResponse, HTTPClientFailure
    > {
        var reader = HTTPResponseReader()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            var count: Int32 = 0
            let step = buffer.withUnsafeMutableBytes { bytes in
                perform(ssl, fd, deadline: deadline) { ssl in
                    count = SSL_read(ssl, bytes.baseAddress, Int32(bytes.count))
                    return count
                }
            }
            if step == .timedOut { return .failure(late(reader)) }
            do {
                if count > 0, let response = try reader.feed(buffer[..<Int(count)]) { return .success(response) }
                // A close, clean or not, ends the response; what arrived is judged as it is.
                if step != .done { return .success(try reader.finish()) }
            } catch {
                return .failure(error)
            }
            if MonotonicClock.now() >= deadline { return .failure(late(reader)) }
        }
    }

    private func late(_ reader: HTTPResponseReader) -> HTTPClientFailure {
        let message =
            reader.rawCount == 0
            ? "no HTTP answer within \(seconds) s" : "the response did not finish within \(seconds) s"
        return HTTPClientFailure(stage: .http, message: message)
    }

    private enum Step: Equatable { case done, failed, timedOut }

    /// Runs one TLS call on the non-blocking socket, waiting in poll(2) for what OpenSSL
    /// asks (SSL_get_error(3)) until `deadline`: so a peer that trickles bytes cannot keep
    /// any step alive past its deadline.
    private func perform(_ ssl: OpaquePointer, _ fd: Int32, deadline: UInt64, _ call: (OpaquePointer) -> Int32) -> Step
    {
        while true {
            ERR_clear_error()
            let result = call(ssl)
            if result > 0 { return .done }
            let events: Int16
            switch SSL_get_error(ssl, result) {
            case SSL_ERROR_WANT_READ: events = Int16(POLLIN)
            case SSL_ERROR_WANT_WRITE: events = Int16(POLLOUT)
            default: return .failed
            }
            switch wait(fd, events: events, until: deadline) {
            case .ready: continue
            case .timedOut: return .timedOut
            case .failed: return .failed
            }
        }
    }

    private enum Readiness {
        case ready, timedOut
        case failed(SystemError)
    }

    /// poll(2) for `events` until `deadline`. EINTR waits again for the time that remains
    /// (`Posix.poll`; poll(2): a signal ends the wait early, it is no timeout); another error
    /// is a failure, never a loop that spins.
    private func wait(_ fd: Int32, events: Int16, until deadline: UInt64) -> Readiness {
        while MonotonicClock.now() < deadline {
            do throws(SystemError) {
                if try Posix.poll(fd, events: events, milliseconds: { Self.milliseconds(until: deadline) }) != 0 {
                    return .ready
                }
            } catch {
                return .failed(error)
            }
        }
        return .timedOut
    }

    /// The time left until `deadline` in whole milliseconds, rounded up so a wait never ends
    /// just short of it; 0 once it has passed.
    static func milliseconds(until deadline: UInt64) -> Int32 {
        let now = MonotonicClock.now()
        return now >= deadline ? 0 : Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }

    /// The end of a step that starts now (each step, connect, handshake and response, has
    /// the whole `timeout`).
    private func deadline() -> UInt64 {
        MonotonicClock.now() + UInt64(timeout * 1_000_000_000)
    }

    private var seconds: String {
        timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)
    }

    /// A non-blocking TCP connection, made within the timeout; every later step polls with
    /// its own deadline (so a server that accepts and never answers cannot hang the probe).
    private func connect(_ host: String, _ port: Int) -> Result<Int32, HTTPClientFailure> {
        guard case .success(let found) = Posix.addresses(of: host, port: port), let first = found.first else {
            return .failure(HTTPClientFailure(stage: .resolve, message: "cannot resolve \(host)"))
        }
        let fd: Int32
        do throws(SystemError) {
            fd = try Posix.socket(domain: first.family, type: Int32(SOCK_STREAM.rawValue))
        } catch {
            return .failure(HTTPClientFailure(stage: .tcp, message: error.description))
        }
        let reason: String
        do throws(SystemError) {
            // A non-blocking connect(2) goes on in the background: EINPROGRESS (connect(2)).
            let connected = first.withSockAddr { pointer, length in
                Result { () throws(SystemError) in try Posix.connect(fd, pointer, length) }
            }
            if try !connected.get() {
                switch wait(fd, events: Int16(POLLOUT), until: deadline()) {
                case .ready: try Posix.checkConnected(fd)
                case .timedOut: throw SystemError("connect", errno: ETIMEDOUT)
                case .failed(let error): throw error
                }
            }
            return .success(fd)
        } catch {
            reason = error.errno == ETIMEDOUT ? "timed out after \(seconds) s" : error.reason
        }
        Posix.close(fd)
        return .failure(HTTPClientFailure(stage: .tcp, message: "cannot connect to \(host):\(port): \(reason)"))
    }

    /// The Host field's value: the port only when it is not 443, and an IPv6 literal in
    /// brackets (RFC 9110 §7.2, RFC 3986 §3.2.2).
    static func hostField(_ host: String, port: Int) -> String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return port == 443 ? shown : "\(shown):\(port)"
    }
}
