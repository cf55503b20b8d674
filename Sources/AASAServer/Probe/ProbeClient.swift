@preconcurrency import Glibc
import COpenSSL
import COpenSSLShims
import Foundation

/// A one-request HTTPS client built on the project's OpenSSL layer, for `probe`: blocking
/// sockets with a deadline on every step, verification done by OpenSSL but reported rather
/// than enforced (the probe must say *why* a chain fails), no redirect ever followed.
public struct ProbeClient: Sendable {
    public struct Connection: Sendable {
        public var protocolVersion: String
        public var alpn: String?
        /// nil when the chain verified for the name.
        public var verifyError: String?
        public var certificateNames: [String]
        public var certificateNotAfter: Int
    }

    public let caFile: String?
    public let timeout: Double

    public init(caFile: String?, timeout: Double) {
        self.caFile = caFile
        self.timeout = timeout
    }

    /// GETs `path` from `host` (sent as SNI and Host), dialling `address` (`host:port` or a
    /// `--connect-to` target).
    public func fetch(host: String, port: Int, address: (String, Int), path: String, userAgent: String) -> Result<(Connection, ProbeResponse), ProbeFailure> {
        let fd: Int32
        switch connect(address.0, address.1) {
        case .success(let socket): fd = socket
        case .failure(let failure): return .failure(failure)
        }
        defer { Glibc.close(fd) }
        guard let context = SSL_CTX_new(TLS_client_method()) else { return .failure(ProbeFailure(stage: .tls, message: "SSL_CTX_new failed")) }
        defer { SSL_CTX_free(context) }
        COpenSSLShims_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        if let caFile {
            guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
                return .failure(ProbeFailure(stage: .tls, message: OpenSSLError.drain("cannot load --cacert \(caFile)").description))
            }
        } else {
            SSL_CTX_set_default_verify_paths(context)
        }
        var protocols: [UInt8] = [8] + Array("http/1.1".utf8)
        _ = SSL_CTX_set_alpn_protos(context, &protocols, UInt32(protocols.count))
        guard let ssl = SSL_new(context) else { return .failure(ProbeFailure(stage: .tls, message: "SSL_new failed")) }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        COpenSSLShims_SSL_set_tlsext_host_name(ssl, host)
        SSL_set1_host(ssl, host)
        ERR_clear_error()
        guard SSL_connect(ssl) == 1 else {
            let timedOut = errno == EAGAIN || errno == EWOULDBLOCK
            let reason = timedOut ? "no TLS answer within \(Int(timeout)) s" : OpenSSLError.drain("TLS handshake failed").description
            return .failure(ProbeFailure(stage: .tls, message: reason))
        }
        let verify = SSL_get_verify_result(ssl)
        var connection = Connection(
            protocolVersion: SSL_get_version(ssl).map { String(cString: $0) } ?? "?", alpn: nil,
            verifyError: verify == X509_V_OK ? nil : String(cString: X509_verify_cert_error_string(verify)),
            certificateNames: [], certificateNotAfter: 0)
        var alpnData: UnsafePointer<UInt8>?
        var alpnLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &alpnData, &alpnLength)
        if let alpnData, alpnLength > 0 { connection.alpn = String(decoding: UnsafeBufferPointer(start: alpnData, count: Int(alpnLength)), as: UTF8.self) }
        if let certificate = SSL_get1_peer_certificate(ssl) {
            connection.certificateNames = CertificateStore.dnsNames(certificate)
            connection.certificateNotAfter = CertificateStore.expiry(certificate)
            X509_free(certificate)
        }
        let hostHeader = port == 443 ? host : "\(host):\(port)"
        let request = "GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: \(userAgent)\r\nAccept: application/json\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n"
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ SSL_write(ssl, $0.baseAddress, Int32($0.count)) }) == Int32(bytes.count) else {
            return .failure(ProbeFailure(stage: .http, message: OpenSSLError.drain("sending the request failed").description))
        }
        var raw: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let deadline = Date().addingTimeInterval(timeout)
        while raw.count < 8 * 1024 * 1024 {
            if Date() > deadline { return .failure(ProbeFailure(stage: .http, message: "the response did not finish within \(Int(timeout)) s")) }
            let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                raw += buffer[..<Int(count)]
                if let response = try? ProbeResponse.parse(raw), isComplete(response, raw) { return .success((connection, response)) }
                continue
            }
            let error = SSL_get_error(ssl, count)
            if error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && errno == 0) || error == SSL_ERROR_SSL && !raw.isEmpty { break }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                return .failure(ProbeFailure(stage: .http, message: raw.isEmpty ? "no HTTP answer within \(Int(timeout)) s" : "the response stalled"))
            }
            break
        }
        do {
            return .success((connection, try ProbeResponse.parse(raw)))
        } catch {
            return .failure(error)
        }
    }

    /// A response with a Content-Length is complete once that many bytes arrived.
    private func isComplete(_ response: ProbeResponse, _ raw: [UInt8]) -> Bool {
        guard let length = response.header("content-length").flatMap(Int.init), response.header("transfer-encoding") == nil,
            let headEnd = raw.firstRange(of: [13, 10, 13, 10])
        else { return false }
        return raw.count - headEnd.upperBound >= length
    }

    /// A TCP connection with a connect deadline, then blocking I/O with receive and send
    /// deadlines (so a server that accepts and never answers cannot hang the probe).
    private func connect(_ host: String, _ port: Int) -> Result<Int32, ProbeFailure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            return .failure(ProbeFailure(stage: .resolve, message: "cannot resolve \(host)"))
        }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(ProbeFailure(stage: .tcp, message: "socket: \(String(cString: strerror(errno)))")) }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        if Glibc.connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            return .failure(ProbeFailure(stage: .tcp, message: "cannot connect to \(host):\(port): \(reason)"))
        }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        var socketError: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1, getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length) == 0, socketError == 0 else {
            let reason = socketError != 0 ? String(cString: strerror(socketError)) : "timed out after \(Int(timeout)) s"
            Glibc.close(fd)
            return .failure(ProbeFailure(stage: .tcp, message: "cannot connect to \(host):\(port): \(reason)"))
        }
        _ = fcntl(fd, F_SETFL, flags)
        var deadline = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &deadline, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &deadline, socklen_t(MemoryLayout<timeval>.size))
        return .success(fd)
    }
}
