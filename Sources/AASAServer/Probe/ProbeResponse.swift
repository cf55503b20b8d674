import Foundation

/// One HTTP response as the probe saw it, after undoing chunked framing and gzip.
public struct ProbeResponse: Sendable {
    public var status: Int
    /// Lower-cased names, in order.
    public var headers: [(name: String, value: String)]
    /// The decoded body (gunzipped when the server sent gzip).
    public var body: [UInt8]
    public var wireBytes: Int

    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// Parses `raw` (everything read until the server closed).
    static func parse(_ raw: [UInt8]) throws(ProbeFailure) -> ProbeResponse {
        guard let headEnd = raw.firstRange(of: [13, 10, 13, 10]) else {
            throw ProbeFailure(stage: .http, message: raw.isEmpty ? "the server closed without answering" : "no complete HTTP response head")
        }
        let lines = String(decoding: raw[..<headEnd.lowerBound], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw ProbeFailure(stage: .http, message: "not an HTTP/1.x response: \(lines.first.map(String.init) ?? "")")
        }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = ProbeResponse(status: status, headers: headers, body: Array(raw[headEnd.upperBound...]), wireBytes: raw.count - headEnd.upperBound)
        if response.header("transfer-encoding")?.lowercased().contains("chunked") == true {
            response.body = try dechunk(response.body)
        } else if let length = response.header("content-length").flatMap(Int.init), length <= response.body.count {
            response.body = Array(response.body.prefix(length))
        }
        response.wireBytes = response.body.count
        if response.header("content-encoding")?.lowercased() == "gzip" {
            do {
                response.body = try Gzip.decompress(response.body, limit: 4 * 1024 * 1024)
            } catch {
                throw ProbeFailure(stage: .http, message: "the gzip body does not decompress: \(error)")
            }
        }
        return response
    }

    static func dechunk(_ bytes: [UInt8]) throws(ProbeFailure) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].firstRange(of: [13, 10]) else { break }
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { throw ProbeFailure(stage: .http, message: "malformed chunked body") }
            if size == 0 { break }
            let start = lineEnd.upperBound
            guard start + size <= bytes.count else { throw ProbeFailure(stage: .http, message: "truncated chunked body") }
            result += bytes[start..<(start + size)]
            index = start + size + 2
        }
        return result
    }
}

/// Where a fetch failed, and why.
public struct ProbeFailure: Error, Sendable, CustomStringConvertible {
    public enum Stage: String, Sendable { case resolve, tcp, tls, http }
    public var stage: Stage
    public var message: String
    public var description: String { message }
}
