import Foundation
@preconcurrency import Glibc

/// What the certificate index keeps of a leaf certificate, read from its DER without OpenSSL's
/// parser: OpenSSL 3 decodes the public key of every certificate it parses through its
/// provider decoders, most of the cost of indexing 100,000 certificates (docs/development.md,
/// "Many certificates"), and the index needs none of it. Only the fields below are read
/// (RFC 5280 §4.1); anything unexpected returns nil and the caller parses with OpenSSL.
package struct LeafScan {
    var names: [String] = []
    var notBefore = 0
    var notAfter = 0
    var issuer = ""
    var serialNumber: [UInt8] = []
    var authorityKeyID: [UInt8]?
    var rsaKey = false

    private init() {}

    /// The first `-----BEGIN CERTIFICATE-----` block of `pem`, scanned.
    package init?(pem: [UInt8]) {
        guard let der = PEMBlock.first("CERTIFICATE", in: pem), let scanned = Self.scan(der) else { return nil }
        self = scanned
    }

    private static func element(_ bytes: [UInt8], at offset: Int, within limit: Int) -> DERElement? {
        DERElement(bytes, at: offset, within: limit)
    }

    private static func children(_ bytes: [UInt8], _ range: Range<Int>) -> [DERElement]? {
        DERElement.children(bytes, range)
    }

    private static let commonName: [UInt8] = [0x55, 0x04, 0x03]
    private static let subjectAltName: [UInt8] = [0x55, 0x1D, 0x11]
    private static let authorityKeyIdentifier: [UInt8] = [0x55, 0x1D, 0x23]
    private static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]

    private static func scan(_ bytes: [UInt8]) -> LeafScan? {
        guard let certificate = element(bytes, at: 0, within: bytes.count), certificate.tag == 0x30,
            let tbs = children(bytes, certificate.content)?.first, tbs.tag == 0x30,
            var fields = children(bytes, tbs.content)
        else { return nil }
        if fields.first?.tag == 0xA0 { fields.removeFirst() }  // [0] version
        // serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, then the
        // optional unique identifiers and [3] extensions.
        guard fields.count >= 6, fields[0].tag == 0x02, fields[2].tag == 0x30, fields[3].tag == 0x30,
            fields[4].tag == 0x30, fields[5].tag == 0x30,
            let validity = children(bytes, fields[3].content), validity.count == 2,
            let notBefore = time(bytes, validity[0]), let notAfter = time(bytes, validity[1]),
            let issuer = name(bytes, fields[2]),
            let algorithm = children(bytes, fields[5].content)?.first.flatMap({ children(bytes, $0.content)?.first })
        else { return nil }
        var scan = LeafScan()
        scan.serialNumber = Array(bytes[fields[0].content])
        scan.notBefore = notBefore
        scan.notAfter = notAfter
        scan.issuer = issuer
        scan.rsaKey = bytes[algorithm.content].elementsEqual(rsaEncryption)
        if let extensions = fields.dropFirst(6).first(where: { $0.tag == 0xA3 }) {
            guard let list = children(bytes, extensions.content)?.first, list.tag == 0x30,
                let entries = children(bytes, list.content)
            else { return nil }
            for entry in entries {
                guard let parts = children(bytes, entry.content), let oid = parts.first, let value = parts.last,
                    value.tag == 0x04
                else { return nil }
                let identifier = bytes[oid.content]
                if identifier.elementsEqual(subjectAltName) {
                    guard let names = dnsNames(bytes, value) else { return nil }
                    scan.names = names
                } else if identifier.elementsEqual(authorityKeyIdentifier) {
                    guard let outer = element(bytes, at: value.content.lowerBound, within: value.content.upperBound),
                        let inner = children(bytes, outer.content)
                    else { return nil }
                    scan.authorityKeyID = inner.first { $0.tag == 0x80 }.map { Array(bytes[$0.content]) }
                }
            }
        }
        if scan.names.isEmpty, let subject = commonNameValue(bytes, fields[4]) { scan.names = [subject.lowercased()] }
        return scan
    }

    /// dNSName entries ([2] IA5String) of a subjectAltName's GeneralNames, lower-cased.
    private static func dnsNames(_ bytes: [UInt8], _ value: DERElement) -> [String]? {
        guard let sequence = element(bytes, at: value.content.lowerBound, within: value.content.upperBound),
            sequence.tag == 0x30, let names = children(bytes, sequence.content)
        else { return nil }
        return names.filter { $0.tag == 0x82 }.map { String(decoding: bytes[$0.content], as: UTF8.self).lowercased() }
    }

    /// A Name's common name (or nil when it has none, or a form this scan does not read).
    private static func commonNameValue(_ bytes: [UInt8], _ name: DERElement) -> String? {
        guard let sets = children(bytes, name.content) else { return nil }
        for set in sets {
            for attribute in children(bytes, set.content) ?? [] {
                guard let parts = children(bytes, attribute.content), parts.count == 2,
                    bytes[parts[0].content].elementsEqual(commonName),
                    [0x0C, 0x13, 0x16, 0x14].contains(parts[1].tag)  // UTF8, Printable, IA5, Teletex
                else { continue }
                return String(decoding: bytes[parts[1].content], as: UTF8.self)
            }
        }
        return nil
    }

    /// The issuer as the index names it: its common name (nil without one: OpenSSL's
    /// one-line form is then the caller's).
    private static func name(_ bytes: [UInt8], _ name: DERElement) -> String? {
        commonNameValue(bytes, name)
    }

    /// UTCTime (YYMMDDHHMMSSZ, years 1950–2049, RFC 5280 §4.1.2.5.1) or GeneralizedTime
    /// (YYYYMMDDHHMMSSZ) as seconds since the epoch.
    private static func time(_ bytes: [UInt8], _ value: DERElement) -> Int? {
        let text = Array(bytes[value.content])
        let digits: [UInt8]
        var year: Int
        switch (value.tag, text.count) {
        case (0x17, 13):
            digits = Array(text[2..<12])
            year = Int(text[0] &- 48) * 10 + Int(text[1] &- 48)
            year += year >= 50 ? 1900 : 2000
        case (0x18, 15):
            digits = Array(text[4..<14])
            year = text[0..<4].reduce(0) { $0 * 10 + Int($1 &- 48) }
        default: return nil
        }
        guard text.last == UInt8(ascii: "Z"), text.dropLast().allSatisfy({ (48...57).contains($0) }) else { return nil }
        func pair(_ index: Int) -> Int32 { Int32(digits[index] - 48) * 10 + Int32(digits[index + 1] - 48) }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = pair(0) - 1
        parts.tm_mday = pair(2)
        parts.tm_hour = pair(4)
        parts.tm_min = pair(6)
        parts.tm_sec = pair(8)
        return Int(timegm(&parts))
    }
}
