import AASASystem
import AASATransport
import AssociationKit
import Foundation
@preconcurrency import Glibc
import Logging
import Synchronization

/// Caddy's `ask` for on-demand names (docs/acme.md, "On-demand names"): `GET URL?domain=NAME`
/// on threads of its own (`askers` at once), a 2xx answer allows the name, anything else or no
/// answer within `timeout` refuses it; each answer is remembered for `remembered` seconds. A
/// handshake never waits for it: `verdict` only reads what is remembered, and a name not asked
/// yet waits in an `AskQueue`, shared out between the clients that sent the names, while its
/// handshake goes on without a certificate (docs/security.md, "The on-demand ask under a flood").
public final class OnDemandAsk: Sendable {
    public enum Verdict: Sendable, Equatable {
        case allowed, refused, unknown
    }

    /// What one ask came to.
    public enum Answer: Sendable, Equatable {
        case allowed
        /// The status of a non-2xx answer.
        case refused(Int)
        /// No answer within the deadline, or none that could be read.
        case failed(String)
    }

    /// Where the asks go: an https URL (the HTTPS client, the system's trust store and
    /// `--acme-on-demand-ask-ca`), or a
    /// plain http URL on a loopback address (a local service; nothing leaves the machine
    /// in clear text).
    public enum Target: Sendable {
        case https(HTTPSURL)
        case loopback(SocketAddress, target: String)
    }

    struct State {
        var answers: [String: (allowed: Bool, until: Int)] = [:]
        var queue = AskQueue()
        /// Being asked: a handshake meanwhile does not ask again.
        var asking: Set<String> = []
        var failing = false
        var stopping = false
    }

    /// Seconds one ask may take, connection to the last byte: short, as a slow answer holds
    /// one of the `askers` (an operator's allow-list is a lookup, not a computation).
    static let timeout = 3.0
    /// Seconds an answer, yes or no, is remembered.
    static let remembered = 60
    /// Asks at once: a slow or silent service for one name does not hold up the others.
    static let askers = 4
    /// Answers remembered at most, all names together.
    static let mostAnswers = 10_000

    public let url: String
    let target: Target
    let caFile: String?
    let logger: Logger
    private let state = Mutex(State())
    private let signal = WorkerSignal()
    private let threads = ThreadSet()

    /// nil when `url` is no usable target (`target(_:)`).
    public init?(url: String, caFile: String? = nil, logger: Logger) {
        guard let target = Self.target(url) else { return nil }
        self.url = url
        self.target = target
        self.caFile = caFile
        self.logger = logger
    }

    /// An https URL with a host, or an http URL whose host is a loopback address or
    /// `localhost`; nil otherwise.
    public static func target(_ url: String) -> Target? {
        guard let parts = URLParts(url), !parts.host.isEmpty else { return nil }
        if parts.scheme == "https" { return HTTPSURL(url).map { .https($0) } }
        guard parts.scheme == "http" else { return nil }
        // SocketAddress reads IP addresses and localhost only: no name is resolved.
        let host = parts.host.contains(":") ? "[\(parts.host)]" : parts.host
        guard let address = try? SocketAddress(parsing: "\(host):\(parts.port ?? 80)"), address.isLoopback else {
            return nil
        }
        return .loopback(address, target: parts.target)
    }

    /// What is remembered for `name` now (no I/O: called on an event loop).
    func verdict(for name: String, now: Int) -> Verdict {
        state.withLock { state in
            guard let answer = state.answers[name], answer.until > now else { return .unknown }
            return answer.allowed ? .allowed : .refused
        }
    }

    /// Queues `name`, sent by `source` (`ClientSource.key`), to be asked, unless it waits or
    /// is being asked already; a full share drops that source's oldest name (`AskQueue`).
    func ask(_ name: String, source: UInt64 = 0) {
        let queued = state.withLock { state -> Bool in
            guard !state.asking.contains(name), !state.queue.contains(name) else { return false }
            _ = state.queue.add(name, source: source)
            return true
        }
        if queued { signal.wake() }
    }

    /// Starts the threads that ask; `answered` runs on one after each answer is remembered.
    /// A thread that cannot be made (the thread limit) stops those made and is thrown.
    func start(answered: @escaping @Sendable (String, Answer) -> Void) throws(SystemError) {
        for index in 0..<Self.askers {
            do {
                try threads.start("aasa-acme-ask-\(index)") { [self] in
                    while let name = next() {
                        let answer = query(name)
                        remember(name, answer, now: Int(time(nil)))
                        answered(name, answer)
                    }
                }
            } catch {
                stop()
                waitUntilStopped()
                throw error
            }
        }
    }

    func stop() {
        state.withLock { $0.stopping = true }
        signal.wake()
    }

    /// Joins the threads that ask (after `stop`): an ask under way ends within `timeout`.
    func waitUntilStopped() {
        threads.join()
    }

    private func next() -> String? {
        signal.next { () -> WorkerSignal.Step<String> in
            state.withLock { state in
                if state.stopping { return .stop }
                guard let name = state.queue.take() else { return .wait(3600) }
                state.asking.insert(name)
                return .take(name)
            }
        }
    }

    func remember(_ name: String, _ answer: Answer, now: Int) {
        let change = state.withLock { state -> Bool? in
            if state.answers.count >= Self.mostAnswers {
                state.answers = state.answers.filter { $0.value.until > now }
                if state.answers.count >= Self.mostAnswers { state.answers = [:] }
            }
            state.answers[name] = (answer == .allowed, now + Self.remembered)
            state.asking.remove(name)
            let failing: Bool
            if case .failed = answer { failing = true } else { failing = false }
            defer { state.failing = failing }
            return state.failing == failing ? nil : failing
        }
        // Logged when the service stops or starts answering, not at every name: a flood of
        // names must not become a flood of lines.
        if change == true, case .failed(let detail) = answer {
            logger.warning(
                "acme: the on-demand ask URL does not answer; names are refused until it does",
                metadata: ["url": "\(url)", "detail": "\(detail)"])
        } else if change == false {
            logger.info("acme: the on-demand ask URL answers again", metadata: ["url": "\(url)"])
        }
    }

    /// One `GET URL?domain=NAME`, within `timeout`.
    func query(_ name: String) -> Answer {
        // Host names are letters, digits, hyphens and dots; anything else is percent-encoded.
        let domain = name.utf8.map { byte in
            (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x2E
                ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
        func withDomain(_ target: String) -> String {
            target + (target.contains("?") ? "&" : "?") + "domain=" + domain
        }
        let result: Result<HTTPClientResponse, HTTPClientFailure>
        switch target {
        case .https(let url):
            let client = HTTPSClient(caFile: caFile, timeout: Self.timeout, systemTrust: true)
            result = client.send(
                HTTPSClient.Request(path: withDomain(url.path), headers: [("User-Agent", "aasa-server acme ask")]),
                host: url.host, port: url.port, requireVerified: true
            ).map(\.1)
        case .loopback(let address, let target):
            result = LoopbackHTTPClient(timeout: Self.timeout).get(
                withDomain(target), from: address, headers: [("User-Agent", "aasa-server acme ask")])
        }
        switch result {
        case .success(let response): return (200..<300).contains(response.status) ? .allowed : .refused(response.status)
        case .failure(let failure): return .failed(failure.description)
        }
    }
}
