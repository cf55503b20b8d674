import Foundation
@preconcurrency import Glibc
import TestSupport

/// Several replicas of the real binary behind HAProxy, sharing one `--certs` folder (and the
/// store given in `extra`), with Pebble validating through the balancer (docs/acme.md,
/// "Several replicas"): Pebble's `httpPort` and `tlsPort` are HAProxy's, and
/// pebble-challtestsrv resolves every name to 127.0.0.1, so each of the CA's checks may reach
/// any replica.
final class ReplicaSet {
    let folder: TemporaryFolder
    let pebble: Pebble
    let haproxy: HAProxy
    let names: [String]
    private(set) var ports: [HAProxy.Backend] = []
    private(set) var servers: [RunningServer?] = []
    /// Every replica's flags beyond its ports.
    let arguments: [String]
    let environment: [String: String]
    /// Each replica with a certificates folder of its own (`certs-N`): what they share goes
    /// through the store alone (PostgreSQL), as on hosts without a shared volume.
    let ownCertificates: Bool

    /// Whether this build of `serve` takes `--store` (it arrives with the store's settings).
    static let serverHasStore: Bool = {
        (try? BinaryRunner.run(["serve", "--help"]))?.stdout.contains("--store") ?? false
    }()

    /// `names` each get a site folder; `extra` is added to every replica's flags.
    init(
        replicas: Int = 3, names: [String], extra: [String] = [], environment: [String: String] = [:],
        pebbleEnvironment: [String: String] = [:], ownCertificates: Bool = false, start: Bool = true
    ) throws {
        self.ownCertificates = ownCertificates
        folder = try TemporaryFolder("aasa-replicas")
        self.names = names
        self.environment = environment
        for name in names {
            try folder.write("sites/\(name)/apple-app-site-association", ProbeTests.apple)
        }
        try folder.folder("certs")
        ports = try (0..<replicas).map { _ in
            HAProxy.Backend(httpPort: try ProbeTests.freePort(), httpsPort: try ProbeTests.freePort())
        }
        let httpPort = try ProbeTests.freePort()
        let tlsPort = try ProbeTests.freePort()
        pebble = try Pebble(httpPort: httpPort, tlsPort: tlsPort, environment: pebbleEnvironment)
        haproxy = try HAProxy(backends: ports, httpPort: httpPort, tlsPort: tlsPort)
        arguments =
            [
                "--sites", "sites", "--access-log", "off", "--acme", "on",
                "--acme-directory", pebble.directory, "--acme-directory-ca", pebble.listenerCA,
                "--acme-email", "ops@example.com", "--acme-on-demand", "off",
            ] + pebble.preflightFlags(port: httpPort) + extra
        servers = Array(repeating: nil, count: replicas)
        if start {
            for index in 0..<replicas { try self.start(index) }
        }
    }

    /// Starts replica `index` (again) on its own ports.
    func start(_ index: Int) throws {
        let certificates = ownCertificates ? ["--certs", "certs-\(index)"] : ["--certs", "certs"]
        servers[index] = try RunningServer(
            in: folder.url,
            [
                "--http", "127.0.0.1:\(ports[index].httpPort)", "--https", "127.0.0.1:\(ports[index].httpsPort)",
            ] + certificates + arguments, environment: environment)
    }

    /// kill -9: no goodbye, its store session and locks die with it.
    func kill(_ index: Int) {
        guard let server = servers[index] else { return }
        server.signal(SIGKILL)
        server.process.waitUntilExit()
    }

    var running: [RunningServer] { servers.compactMap { $0 }.filter { $0.process.isRunning } }

    /// Every replica's event log, one after another (for failure messages).
    var logs: String {
        servers.enumerated().map { index, server in "--- replica \(index)\n\(server?.errors ?? "")" }.joined(
            separator: "\n")
    }

    /// Orders created for `name` by all replicas together, as their logs say.
    func orders(for name: String) -> Int {
        servers.reduce(0) { count, server in
            count
                + (server?.errors ?? "").components(separatedBy: "\n").count {
                    $0.contains("acme: order created") && $0.contains("names=\(name) ")
                }
        }
    }

    /// The names replica `index` serves over HTTPS with a certificate Pebble issued, asked in
    /// one curl run (one process for every name).
    func served(by index: Int, _ names: [String]) -> Set<String> {
        served([index: names])[index] ?? []
    }

    /// The same for several replicas at once, their curl runs side by side (a poll of all
    /// replicas takes as long as the slowest, not their sum).
    func served(_ asked: [Int: [String]]) -> [Int: Set<String>] {
        var running: [(Int, Process, Pipe)] = []
        for (index, names) in asked where !names.isEmpty {
            let port = ports[index].httpsPort
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            var arguments = ["curl", "-s", "--max-time", "5", "--cacert", pebble.issuingRoot]
            arguments += ["-w", "%{http_code} %{url}\\n"]
            for name in names {
                // -o goes with one URL: each body is dropped, so only the -w lines are read.
                arguments += [
                    "--resolve", "\(name):\(port):127.0.0.1", "-o", "/dev/null",
                    "https://\(name):\(port)/.well-known/apple-app-site-association",
                ]
            }
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { continue }
            running.append((index, process, output))
        }
        var result: [Int: Set<String>] = [:]
        for (index, process, output) in running {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            var served = Set<String>()
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix("200 ") {
                if let host = URLComponents(string: String(line.dropFirst(4)))?.host { served.insert(host) }
            }
            result[index] = served
        }
        return result
    }

    /// The admin page `path` of replica `index`.
    func admin(_ index: Int, _ path: String) throws -> String {
        guard let port = servers[index]?.adminPort else {
            throw Curl.Failure(description: "replica \(index) has no admin port")
        }
        return String(decoding: try Curl.request("http://127.0.0.1:\(port)\(path)").body, as: UTF8.self)
    }

    func stop() {
        for server in servers {
            _ = server?.stop()
        }
        haproxy.stop()
    }

    deinit {
        stop()
    }
}
