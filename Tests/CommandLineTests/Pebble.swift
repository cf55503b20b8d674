import Foundation
@preconcurrency import Glibc
import TestSupport

/// Let's Encrypt's test CA (Debian's `pebble`) with `pebble-challtestsrv` as its DNS, every
/// name answering 127.0.0.1, on free loopback ports; its validation connects to the ports
/// aasa-server will listen on (`httpPort`, `tlsPort`). Stopped when released.
final class Pebble {
    let folder: TemporaryFolder
    private(set) var directoryPort = 0
    private(set) var managementPort = 0
    /// pebble-challtestsrv's management port (its `/add-a` points a name elsewhere).
    private(set) var challengeManagementPort = 0
    /// pebble-challtestsrv's DNS port (UDP and TCP), which the server's pre-flight asks too.
    private(set) var dnsPort = 0
    /// The CA that signed Pebble's own HTTPS listener (`--acme-directory-ca`).
    let listenerCA: String
    /// The root Pebble issues under (curl's `--cacert`).
    let issuingRoot: String
    /// The listener's key (a proxy in front of Pebble serves with the same pair).
    let listenerKey: String
    private var processes: [Process] = []
    /// Both processes write to this file: a file, not a pipe with a readability handler,
    /// so nothing is left registered with libdispatch when they are killed.
    private let logFile: String

    var directory: String { "https://127.0.0.1:\(directoryPort)/dir" }
    /// How the server labels this issuer in logs and metrics.
    var label: String { "127.0.0.1:\(directoryPort)" }
    var output: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `environment` adds Pebble settings such as `PEBBLE_WFE_NONCEREJECT`; `eab` (key
    /// identifier → base64url HMAC key) makes external account binding required.
    init(httpPort: Int, tlsPort: Int, environment: [String: String] = [:], eab: [String: String] = [:]) throws {
        folder = try TemporaryFolder()
        logFile = try folder.write("pebble.log", "")
        listenerCA = folder.url.appendingPathComponent("listener.pem").path
        issuingRoot = folder.url.appendingPathComponent("root.pem").path
        let key = folder.url.appendingPathComponent("listener-key.pem").path
        listenerKey = key
        try TestCertificates.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2", "-subj",
            "/CN=pebble", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", key, "-out", listenerCA,
        ])
        // A free port is free when it is chosen, not when Pebble binds it: with many tests
        // connecting at once, an outgoing connection can take it in between. Try new ports.
        for attempt in 1...3 {
            directoryPort = try ProbeTests.freePort()
            managementPort = try ProbeTests.freePort()
            dnsPort = try ProbeTests.freePort()
            challengeManagementPort = try ProbeTests.freePort()
            let configuration = """
                {"pebble": {"listenAddress": "127.0.0.1:\(directoryPort)",
                  "managementListenAddress": "127.0.0.1:\(managementPort)",
                  "certificate": "\(listenerCA)", "privateKey": "\(key)", "httpPort": \(httpPort), "tlsPort": \(tlsPort),
                  "ocspResponderURL": "", "externalAccountBindingRequired": \(!eab.isEmpty),
                  "externalAccountMACKeys": {\(eab.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", "))}}}
                """
            let configurationFile = try folder.write("pebble.json", configuration)
            try start(
                "pebble-challtestsrv",
                [
                    "-defaultIPv4", "127.0.0.1", "-defaultIPv6", "", "-dns01", "127.0.0.1:\(dnsPort)", "-http01", "",
                    "-https01", "", "-tlsalpn01", "", "-management", "127.0.0.1:\(challengeManagementPort)",
                ], environment: [:])
            try start(
                "pebble", ["-config", configurationFile, "-dnsserver", "127.0.0.1:\(dnsPort)"],
                environment: ["PEBBLE_VA_NOSLEEP": "1"].merging(environment) { $1 })
            // Pebble opens its directory before its management interface: wait for all three.
            let ports = [directoryPort, managementPort, dnsPort, challengeManagementPort]
            if eventually(20, { ports.allSatisfy { RunningServer.accepts(port: $0) } }) { break }
            stopProcesses()
            if attempt == 3 { throw Failure(description: "pebble did not start: \(output)") }
        }
        let root = try Curl.request("https://127.0.0.1:\(managementPort)/roots/0", ["--cacert", listenerCA])
        try root.body.write(to: URL(fileURLWithPath: issuingRoot))
    }

    private func start(_ program: String, _ arguments: [String], environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = folder.url
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try log.close()
        processes.append(process)
    }

    /// The server's pre-flight asks Pebble's DNS, and its HTTP request goes to `port` (where
    /// Pebble's `httpPort` points: the server's own or a balancer's).
    func preflightFlags(port: Int) -> [String] {
        ["--acme-preflight-resolver", "127.0.0.1:\(dnsPort)", "--acme-preflight-port", "\(port)"]
    }

    /// Makes `name` resolve to `address` alone in Pebble's DNS (nothing listens there: its
    /// validation fails); what it resolved to before is cleared (`/add-a` adds to it).
    func resolve(_ name: String, to address: String) throws {
        _ = try Curl.request(
            "http://127.0.0.1:\(challengeManagementPort)/clear-a", ["-X", "POST", "--data", #"{"host": "\#(name)."}"#])
        _ = try Curl.request(
            "http://127.0.0.1:\(challengeManagementPort)/add-a",
            ["-X", "POST", "--data", #"{"host": "\#(name).", "addresses": ["\#(address)"]}"#])
    }

    /// Certificates Pebble issued (it logs each finalized order's certificate).
    var certificatesIssued: Int {
        output.components(separatedBy: "\n").count { $0.contains("Issued certificate serial") }
    }

    /// Orders Pebble created (it logs each one it adds to its database).
    var ordersCreated: Int {
        output.components(separatedBy: "\n").count { $0.contains("Added order \"") }
    }

    /// How many requests Pebble's front end logged for `path` (its log names each one).
    func requests(_ path: String) -> Int {
        output.components(separatedBy: "\n").count { $0.contains(" \(path) ") || $0.hasSuffix(" \(path)") }
    }

    private func stopProcesses() {
        for process in processes where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        processes = []
    }

    deinit {
        stopProcesses()
    }
}
