import COpenSSL
import COpenSSLShims

/// One TLS connection (`SSL*`), driven by its event loop on a non-blocking socket. It belongs
/// to that loop's thread alone (an SSL object is not thread-safe), so it is not Sendable.
package final class TLSSession {
    package enum Progress {
        case done
        /// The socket must become readable (or writable) before the call can go on.
        case wantRead, wantWrite
        /// The ClientHello callback paused the handshake: a certificate being loaded, a
        /// challenge being looked up or an on-demand certificate on its way (`waitingFor`
        /// says which); `resume(with:)` once its answer is in or a new store arrives.
        case paused
        case closed
        case failed(String)
    }

    private let ssl: OpaquePointer
    package private(set) var established = false
    /// The certificates this connection began with, kept alive for as long as it lasts: the
    /// SNI callback reaches them through an unretained pointer, so a reload may drop a store
    /// only once the last connection that can still switch to one of its contexts is gone.
    package private(set) var certificates: CertificateStore
    /// ACME's answers for the ClientHello callback (nil without ACME).
    package let hooks: (any HandshakeHooks)?
    /// The client's address as `ClientSource.key` makes it, for the certificate loader and the hooks.
    package let source: UInt64
    /// What the ClientHello callback paused for, set with each pause.
    package var waitingFor: WaitReason?
    /// Whether the last read of the socket returned less than it asked for (or nothing):
    /// written by the socket BIO's callback, `noteShortRead`.
    private let lastReadWasShort: UnsafeMutablePointer<Bool>

    package init(
        certificates: CertificateStore, hooks: (any HandshakeHooks)? = nil, fd: Int32, source: UInt64 = 0
    ) throws(OpenSSLError) {
        ERR_clear_error()
        guard let ssl = SSL_new(certificates.initialContext.context) else {
            throw OpenSSLError.drain("SSL_new")
        }
        self.ssl = ssl
        self.certificates = certificates
        self.hooks = hooks
        self.source = source
        SSL_set_fd(ssl, fd)
        SSL_set_accept_state(ssl)
        // A handshake holds OpenSSL's read and write buffers only while bytes are in them: a
        // client that sends its ClientHello and stops then costs about 34 KiB less
        // (docs/security.md, "Connections and handshakes in total"). Cleared once the
        // handshake is done, where keeping them is cheaper per request.
        COpenSSLShims_SSL_set_mode(ssl, COpenSSLShims_SSL_MODE_RELEASE_BUFFERS)
        lastReadWasShort = .allocate(capacity: 1)
        lastReadWasShort.initialize(to: false)
        if let socketBIO = SSL_get_rbio(ssl) {
            let flag = UnsafeMutableRawPointer(lastReadWasShort).assumingMemoryBound(to: CChar.self)
            BIO_set_callback_arg(socketBIO, flag)
            BIO_set_callback_ex(socketBIO, noteShortRead)
        }
        // The ClientHello callback finds this session (and its store) through the SSL
        // object; the session owns the SSL object, so the pointer never outlives it.
        COpenSSLShims_SSL_set_app_data(ssl, Unmanaged.passUnretained(self).toOpaque())
    }

    /// A paused handshake goes on with a newer store (the one with its certificate).
    package func resume(with store: CertificateStore) {
        certificates = store
    }

    /// Whether ALPN selected `acme-tls/1`: a TLS-ALPN-01 validation handshake (RFC 8737 §3),
    /// compared as bytes (no string per handshake).
    package var selectedACMETLS: Bool {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data else { return false }
        return UnsafeBufferPointer(start: data, count: Int(length)).elementsEqual(ClientHelloExtensions.acmeTLS1)
    }

    /// Whether this is a resumed TLS 1.2 handshake, in which the client speaks last (its
    /// Finished, RFC 5246 §7.3): the server then has nothing to send until the request.
    package var clientSpokeLast: Bool {
        SSL_session_reused(ssl) == 1 && SSL_version(ssl) == TLS1_2_VERSION
    }

    deinit {
        SSL_free(ssl)
        lastReadWasShort.deallocate()
    }

    /// True when another read could only say WANT_READ: the last read of the socket took
    /// less than it asked for, so the socket's queue was empty (the context reads ahead, so
    /// it asks for a whole buffer), and no bytes wait in OpenSSL's buffer. An edge-triggered
    /// epoll reports whatever arrives later, so the loop skips that read, as it does for
    /// plain HTTP after a short read.
    package var drained: Bool {
        lastReadWasShort.pointee && SSL_has_pending(ssl) == 0
    }

    /// One step of the handshake (SSL_do_handshake(3) on a non-blocking socket).
    package func handshake() -> Progress {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            established = true
            COpenSSLShims_SSL_clear_mode(ssl, COpenSSLShims_SSL_MODE_RELEASE_BUFFERS)
            return .done
        }
        return progress(after: result, "handshake")
    }

    /// Reads decrypted bytes; `.done` never comes back, only a count.
    ///
    /// SSL_get_error(3) needs the thread's error queue empty before the call. Reads and writes
    /// do not clear it first (that cost a third of the instructions OpenSSL spent per
    /// keep-alive request): every failure drains the queue (`progress(after:)`), and the
    /// calls that clear it here (handshake, shutdown) run before any read or write.
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> (count: Int, progress: Progress) {
        var count = 0
        if SSL_read_ex(ssl, buffer.baseAddress, buffer.count, &count) == 1 { return (count, .done) }
        return (0, progress(after: 0, "read"))
    }

    /// Writes what it can of `buffer` (partial writes are enabled); never called with nothing
    /// to write, which OpenSSL does not allow.
    package func write(_ buffer: UnsafeRawBufferPointer) -> (count: Int, progress: Progress) {
        precondition(!buffer.isEmpty)
        var count = 0
        if SSL_write_ex(ssl, buffer.baseAddress, buffer.count, &count) == 1 { return (count, .done) }
        return (0, progress(after: 0, "write"))
    }

    /// Frees OpenSSL's read and write buffers (SSL_free_buffers(3); allocated again at the
    /// next read or write): an idle connection then costs little. Only when no bytes wait in
    /// them (older OpenSSL 3.0 releases freed a buffer still in use otherwise, CVE-2024-4741).
    package func releaseBuffers() {
        guard SSL_has_pending(ssl) == 0 else { return }
        SSL_free_buffers(ssl)
    }

    /// A best-effort close_notify before the socket closes; never waits for the peer's.
    package func shutdown() {
        guard established else { return }
        ERR_clear_error()
        SSL_shutdown(ssl)
    }

    /// SSL_get_error(3): WANT_* are waits, ZERO_RETURN is a clean close (close_notify),
    /// everything else ends the connection (no SSL_shutdown after SYSCALL or SSL errors).
    private func progress(after result: Int32, _ operation: String) -> Progress {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_WANT_CLIENT_HELLO_CB: return .paused
        case SSL_ERROR_ZERO_RETURN:
            established = false
            return .closed
        default:
            established = false
            return .failed(OpenSSLError.drain(operation).description)
        }
    }
}

/// BIO_set_callback_ex(3), on the socket BIO: after each read of the socket, records whether
/// it came back short. It returns every operation's result unchanged (a callback's return
/// value replaces it; before an operation it is 1, which lets the operation go on).
private let noteShortRead: BIO_callback_fn_ex = { bio, operation, _, requested, _, _, result, processed in
    if operation == BIO_CB_READ | BIO_CB_RETURN, let flag = BIO_get_callback_arg(bio) {
        let count = result > 0 ? processed?.pointee ?? 0 : 0
        UnsafeMutableRawPointer(flag).assumingMemoryBound(to: Bool.self).pointee = count < requested
    }
    return Int(result)
}
