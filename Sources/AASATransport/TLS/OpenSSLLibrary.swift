import COpenSSL

/// Process-wide OpenSSL set-up, before any other OpenSSL call.
public enum OpenSSLLibrary {
    /// OPENSSL_init_crypto(3) with OPENSSL_INIT_NO_ATEXIT: no cleanup at exit. The server's
    /// background threads (ACME orders, the CDN watch) may be inside an OpenSSL call when the
    /// main thread returns; a cleanup at exit would free what they still use and crash the
    /// exit (seen as SIGSEGV on SIGTERM under load). The operating system frees it all anyway.
    public static func keepLoadedAtExit() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}
