import AASAServer
import AASASites
import AssociationKit
import Logging

/// What `serve` says while it starts: every diagnostic of every site, the certificates'
/// problems, and why it will not start. Text is the `validate` format; with
/// `--log-format json` each is one JSON event with its fields (file, line, column, code).
struct StartupReport {
    let format: LogFormat
    let logger: Logger

    func sites(_ loaded: SiteLoader.Result) {
        guard format == .json else { return StandardStreams.writeError(loaded.report) }
        for check in loaded.checks {
            for diagnostic in check.diagnostics where diagnostic.severity != .info {
                logger.log(
                    level: level(diagnostic.severity), "\(diagnostic.messageWithPointer)",
                    metadata: [
                        "file": "\(check.path)", "line": "\(diagnostic.location.line)",
                        "column": "\(diagnostic.location.column)",
                        "code": "\(diagnostic.code.rawValue)", "pointer": "\(diagnostic.pointer)",
                    ])
            }
            if check.omitted.count > 0 {
                logger.warning("\(DiagnosticLines.summary(of: check.omitted))", metadata: ["file": "\(check.path)"])
            }
            if let reason = check.readError { logger.error("\(reason)", metadata: ["file": "\(check.path)"]) }
        }
        problems(loaded.problems)
    }

    func problems(_ problems: [LoadProblem]) {
        guard format == .json else { return StandardStreams.writeError(problems.map { $0.line + "\n" }.joined()) }
        for problem in problems {
            logger.log(level: level(problem.severity), "\(problem.message)", metadata: ["file": "\(problem.path)"])
        }
    }

    /// The last word before exiting without serving.
    func notStarting(_ reason: String) {
        guard format == .json else { return StandardStreams.writeError("error: not starting: \(reason)\n") }
        logger.critical("not starting: \(reason)")
    }

    private func level(_ severity: Severity) -> Logger.Level {
        switch severity {
        case .error: .error
        case .warning: .warning
        case .info: .info
        }
    }
}
