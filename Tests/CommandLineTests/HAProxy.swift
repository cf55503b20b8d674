import Foundation
@preconcurrency import Glibc
import TestSupport

/// Debian's HAProxy in front of several replicas on free loopback ports: round-robin in HTTP
/// mode on `httpPort` (port 80's role: HTTP-01 and plain requests) and in TCP mode on `tlsPort`
/// (port 443's role: TLS passes through, so TLS-ALPN-01 reaches a replica whole). A replica
/// that refuses connections is skipped at once (`retries` with `option redispatch 1`: every
/// retry goes to another server), with no health checks whose timing a test would race.
/// Stopped when released.
final class HAProxy {
    struct Backend {
        var httpPort: Int
        var httpsPort: Int
    }

    struct Missing: Error, CustomStringConvertible {
        var description = "haproxy is needed for the replica tests (.ci/run installs it; apt-get install haproxy)"
    }

    static let binary = "/usr/sbin/haproxy"
    static var available: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    let folder: TemporaryFolder
    let httpPort: Int
    let tlsPort: Int
    private let process = Process()
    private let logFile: String

    var output: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    init(backends: [Backend], httpPort: Int, tlsPort: Int) throws {
        guard Self.available else { throw Missing() }
        folder = try TemporaryFolder("aasa-haproxy")
        self.httpPort = httpPort
        self.tlsPort = tlsPort
        logFile = try folder.write("haproxy.log", "")
        func servers(_ port: KeyPath<Backend, Int>) -> String {
            backends.enumerated().map { index, backend in
                "  server r\(index) 127.0.0.1:\(backend[keyPath: port])"
            }.joined(separator: "\n")
        }
        let configuration = """
            global
              maxconn 4096
            defaults
              timeout connect 2s
              timeout client 30s
              timeout server 30s
              retries 3
              option redispatch 1
            frontend plain
              mode http
              bind 127.0.0.1:\(httpPort)
              default_backend replicas_plain
            backend replicas_plain
              mode http
              balance roundrobin
              http-reuse never
            \(servers(\.httpPort))
            frontend tls
              mode tcp
              bind 127.0.0.1:\(tlsPort)
              default_backend replicas_tls
            backend replicas_tls
              mode tcp
              balance roundrobin
            \(servers(\.httpsPort))

            """
        let file = try folder.write("haproxy.cfg", configuration)
        process.executableURL = URL(fileURLWithPath: Self.binary)
        // -db: in the foreground, so the test owns the process and stops it.
        process.arguments = ["-db", "-f", file]
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try log.close()
        guard eventually(10, { RunningServer.accepts(port: httpPort) && RunningServer.accepts(port: tlsPort) }) else {
            stop()
            throw RunningServer.StartFailure(description: "haproxy did not start: \(output)")
        }
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit {
        stop()
    }
}
