@preconcurrency import Glibc

/// Output for the commands. Glibc's `stdout`/`stderr` are C globals that Swift 6 cannot
/// prove safe, so they are reached through `@preconcurrency` in this one place.
enum StandardStreams {
    static func write(_ text: String) {
        fputs(text, stdout)
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
