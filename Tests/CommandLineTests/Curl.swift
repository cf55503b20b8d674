import Foundation

/// curl, as a user checks a deployment.
enum Curl {
    struct Response {
        var status: Int
        /// Lower-cased names.
        var headers: [String: String]
        var body: Data
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `url` fetched with `options`; with `network`, from the network namespace of that process
    /// (nsenter(1) `--net`: `NetworkNamespace`).
    static func request(_ url: String, _ options: [String] = [], network: pid_t? = nil) throws -> Response {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let enter = network.map { ["nsenter", "--target", "\($0)", "--net"] } ?? []
        process.arguments = enter + ["curl", "-sS", "-i", "--max-time", "10"] + options + [url]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let split = data.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(
                description:
                    "curl \(options) \(url): "
                    + "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))"
            )
        }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Data(data[split.upperBound...]))
    }
}
