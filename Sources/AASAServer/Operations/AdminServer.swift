import AASATransport
import CSystemShims
import Foundation
@preconcurrency import Glibc

/// The admin listener (loopback by default): `/healthz`, `/readyz`, `/metrics` and the status
/// page at `/`. Admin traffic is a person or a scraper now and then, so one thread serves
/// one request per connection in turn, with a deadline on every read and write; it never
/// touches the event loops.
final class AdminServer: Sendable {
    let fd: Int32
    let state: ServerState
    static let timeoutMilliseconds: Int32 = 2000

    init(fd: Int32, state: ServerState) {
        self.fd = fd
        self.state = state
    }

    func run() {
        var peer = sockaddr_storage()
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 1000) > 0 else { continue }
            do {
                while case .processed(let client) = try Posix.accept(fd, peer: &peer) {
                    serve(client)
                    Posix.close(client)
                }
            } catch  where error.errno == EMFILE || error.errno == ENFILE {
                // Out of descriptors: the connection stays queued and poll would report it
                // again at once, so pause as the event loops do (EventLoop+Accept.swift).
                usleep(100_000)
            } catch {
                // ECONNABORTED and the like concern one connection; the next poll goes on.
            }
        }
    }

    private func serve(_ client: Int32) {
        guard let request = readHead(client) else { return }
        let line = request.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = line.split(separator: " ")
        guard parts.count == 3 else { return write(client, AdminResponse(status: .badRequest, text: "bad request\n")) }
        let target = String(parts[1])
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = pieces.first.map(String.init) ?? target
        let query = pieces.count > 1 ? String(pieces[1]) : ""
        guard parts[0] == "GET" || parts[0] == "HEAD" else {
            return write(client, AdminResponse(status: .methodNotAllowed, text: "only GET and HEAD\n"))
        }
        let response: AdminResponse
        switch path {
        case "/healthz": response = AdminResponse(status: .ok, text: "ok\n")
        case "/readyz":
            response =
                state.snapshots.current.table.count > 0 || state.snapshots.current.checks.isEmpty
                ? AdminResponse(status: .ok, text: "ready\n")
                : AdminResponse(status: .serviceUnavailable, text: "no sites loaded\n")
        case "/metrics":
            response = AdminResponse(
                status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8",
                body: Array(MetricsReport.render(state).utf8))
        case "/":
            let tested = QueryString.value(of: "url", in: query)
            response = AdminResponse(
                status: .ok, contentType: "text/html; charset=utf-8",
                body: Array(StatusPage.render(state, testing: tested).utf8))
        default: response = AdminResponse(status: .notFound, text: "not found\n")
        }
        write(client, response, headOnly: parts[0] == "HEAD")
    }

    /// Reads until the end of the request head, 16 KiB at most, within the deadline.
    private func readHead(_ client: Int32) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 16 * 1024 {
            var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Self.timeoutMilliseconds) > 0 else { return nil }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(client, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            bytes += buffer[..<count]
            if bytes.count >= 4, bytes.suffix(4) == [13, 10, 13, 10] { return String(decoding: bytes, as: UTF8.self) }
        }
        return nil
    }

    private func write(_ client: Int32, _ response: AdminResponse, headOnly: Bool = false) {
        let head =
            "HTTP/1.1 \(response.status.rawValue) \(response.status.reason)\r\nContent-Type: "
            + "\(response.contentType)\r\n"
            + "Content-Length: \(response.body.count)\r\nCache-Control: no-store\r\nX-Content-Type-Options: "
            + "nosniff\r\nConnection: close\r\n\r\n"
        var bytes = Array(head.utf8)
        if !headOnly { bytes += response.body }
        var offset = 0
        while offset < bytes.count {
            var poller = pollfd(fd: client, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, Self.timeoutMilliseconds) > 0 else { return }
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return }
            offset += sent
        }
    }
}

/// One admin response.
struct AdminResponse {
    var status: HTTPStatus
    var contentType = "text/plain; charset=utf-8"
    var body: [UInt8]

    init(status: HTTPStatus, text: String) {
        self.status = status
        body = Array(text.utf8)
    }

    init(status: HTTPStatus, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// `application/x-www-form-urlencoded` query values (the URL tester's form).
enum QueryString {
    static func value(of name: String, in query: String) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.first.map(String.init) == name else { continue }
            let raw = parts.count > 1 ? String(parts[1]) : ""
            return (raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? raw).trimmingCharacters(
                in: .whitespaces)
        }
        return nil
    }
}
