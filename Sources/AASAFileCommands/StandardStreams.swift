#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Output for the commands. The C library's `stdout`/`stderr` are globals that Swift 6
/// cannot prove safe, so they are reached through `@preconcurrency` in this one place.
package enum StandardStreams {
    package static func write(_ text: String) {
        fputs(text, stdout)
    }

    /// Bytes as they are (a file's content may hold any byte, NUL included).
    package static func write(bytes: [UInt8]) {
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, stdout) }
    }

    package static func writeError(_ text: String) {
        fputs(text, stderr)
    }

    package static func flush() {
        fflush(stdout)
        fflush(stderr)
    }
}

package func exitProcess(_ code: Int32) -> Never {
    StandardStreams.flush()
    exit(code)
}
