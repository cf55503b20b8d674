import Foundation
@preconcurrency import Glibc

/// Certificates made at test time with the openssl command line: a CA and leaf certificates
/// in certbot's layout. Nothing secret is committed.
public struct TestCertificates {
    public let directory: URL
    public var caFile: String { directory.appendingPathComponent("ca/ca.pem").path }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(in folder: TemporaryFolder) throws {
        directory = folder.url.appendingPathComponent("certs")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("ca"), withIntermediateDirectories: true)
        try Self.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "30", "-subj",
            "/CN=test CA",
            "-keyout", directory.appendingPathComponent("ca/ca-key.pem").path, "-out", caFile,
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
    }

    /// Issues a certificate for `names` into `certs/<folder>/`, with a P-256 key unless `rsa`.
    public func issue(_ folder: String, names: [String], days: Int = 30, rsa: Bool = false) throws {
        let target = directory.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let key = target.appendingPathComponent("privkey.pem").path
        let request = target.appendingPathComponent("request.csr").path
        let certificate = target.appendingPathComponent("cert.pem").path
        let extensions = target.appendingPathComponent("ext.cnf").path
        // An IPv4 literal is an iPAddress entry (RFC 5280 §4.2.1.6), what clients check an IP against.
        let entries = names.map { $0.allSatisfy { $0.isNumber || $0 == "." } ? "IP:\($0)" : "DNS:\($0)" }
        try ("subjectAltName=" + entries.joined(separator: ",") + "\nextendedKeyUsage=serverAuth\n")
            .write(toFile: extensions, atomically: true, encoding: .utf8)
        try Self.openssl(
            [
                "req", "-new", "-newkey",
            ] + (rsa ? ["rsa:2048"] : ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"]) + [
                "-nodes", "-subj", "/CN=\(names[0])", "-keyout", key, "-out", request,
            ])
        try Self.openssl([
            "x509", "-req", "-in", request, "-CA", caFile, "-CAkey",
            directory.appendingPathComponent("ca/ca-key.pem").path, "-CAcreateserial",
            "-days", String(days), "-out", certificate, "-extfile", extensions,
        ])
        let chain =
            try String(contentsOfFile: certificate, encoding: .utf8) + String(contentsOfFile: caFile, encoding: .utf8)
        try chain.write(toFile: target.appendingPathComponent("fullchain.pem").path, atomically: true, encoding: .utf8)
    }

    /// Issues into `certs/<folder>/` a certificate that began `daysAgo` and ends in `daysLeft`
    /// days (openssl-ca(1) `-startdate`/`-enddate`, which `x509 -req` lacks before 3.4).
    public func issueBackdated(_ folder: String, names: [String], daysAgo: Int, daysLeft: Int) throws {
        let target = directory.appendingPathComponent(folder)
        let work = directory.appendingPathComponent("ca/backdated")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let index = work.appendingPathComponent("index.txt").path
        if !FileManager.default.fileExists(atPath: index) {
            try "".write(toFile: index, atomically: true, encoding: .utf8)
        }
        let configuration = work.appendingPathComponent("ca.cnf").path
        try """
        [ca]
        default_ca = test
        [test]
        database = \(index)
        new_certs_dir = \(work.path)
        rand_serial = yes
        default_md = sha256
        policy = any
        copy_extensions = none
        unique_subject = no
        [any]
        commonName = supplied
        [leaf]
        subjectAltName = \(names.map { "DNS:\($0)" }.joined(separator: ","))
        extendedKeyUsage = serverAuth

        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        let key = target.appendingPathComponent("privkey.pem").path
        let request = work.appendingPathComponent("request.csr").path
        let certificate = work.appendingPathComponent("leaf.pem").path
        try Self.openssl([
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=\(names[0])",
            "-keyout", key, "-out", request,
        ])
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let now = Date()
        try Self.openssl([
            "ca", "-batch", "-config", configuration, "-extensions", "leaf", "-in", request, "-out", certificate,
            "-cert", caFile, "-keyfile", directory.appendingPathComponent("ca/ca-key.pem").path, "-notext",
            "-startdate", formatter.string(from: now.addingTimeInterval(Double(-daysAgo * 86_400))),
            "-enddate", formatter.string(from: now.addingTimeInterval(Double(daysLeft * 86_400))),
        ])
        let chain =
            try String(contentsOfFile: certificate, encoding: .utf8) + String(contentsOfFile: caFile, encoding: .utf8)
        try chain.write(toFile: target.appendingPathComponent("fullchain.pem").path, atomically: true, encoding: .utf8)
        chmod(key, 0o600)
    }

    /// openssl(1) as `OpenSSLCommand.run`, failing on a non-zero exit but where a status is the
    /// answer (`s_client`, or a command fed `input`).
    @discardableResult
    public static func openssl(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String) {
        let result = try OpenSSLCommand.run(arguments, input: input)
        if input == nil && result.status != 0 && arguments.first != "s_client" {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(result.output)")
        }
        return result
    }
}
