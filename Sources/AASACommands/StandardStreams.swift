@preconcurrency import Glibc

/// Output for the commands. Glibc's `stdout`/`stderr` are C globals that Swift 6 cannot
/// prove safe, so they are reached through `@preconcurrency` in this one place.
enum StandardStreams {
    static func write(_ text: String) {
        fputs(text, stdout)
    }

    /// Bytes as they are (a file's content may hold any byte, NUL included).
    static func write(bytes: [UInt8]) {
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, stdout) }
    }

    static func writeError(_ text: String) {
        fputs(text, stderr)
    }

    static func flush() {
        fflush(stdout)
        fflush(stderr)
    }
}

func exitProcess(_ code: Int32) -> Never {
    StandardStreams.flush()
    Glibc.exit(code)
}
