import AASALoop
import AASASites
import AssociationKit
@preconcurrency import Glibc
import Logging

/// What `serve` says while it starts: every diagnostic of every site, the certificates'
/// problems, and why it will not start. Text is the `validate` format; with
/// `--log-format json` each is one JSON event with its fields (file, line, column, code).
struct StartupReport {
    let format: LogFormat
    let logger: Logger

    /// Every problem, in load order: text in the `validate` format, or one JSON event each
    /// with its fields.
    func problems(_ problems: [LoadProblem]) {
        guard format == .json else {
            return Self.writeError(problems.map { $0.rendered + "\n" }.joined())
        }
        for problem in problems {
            guard case .dictionary(var metadata) = problem.logged else { continue }
            metadata["message"] = nil
            logger.log(level: level(problem.severity), "\(problem.message)", metadata: metadata)
        }
    }

    /// The last word before exiting without serving.
    func notStarting(_ reason: String) {
        guard format == .json else { return Self.writeError("error: not starting: \(reason)\n") }
        logger.critical("not starting: \(reason)")
    }

    private func level(_ severity: Severity) -> Logger.Level {
        switch severity {
        case .error: .error
        case .warning: .warning
        case .info: .info
        }
    }

    /// Standard error, where a server that does not start says why (the C library's
    /// `stderr` is a global Swift 6 reaches through `@preconcurrency`).
    static func writeError(_ text: String) {
        fputs(text, stderr)
    }

    static func flush() {
        fflush(stdout)
        fflush(stderr)
    }
}
