import AASASites
import AssociationKit

extension AppCheck {
    /// Every domain's assetlinks.json checked for `package` signed with `expected` (upper-case
    /// hex with colons; nil when only the grant is checked).
    public func android(package: String, fingerprint expected: String?, domains: [String]) -> ProbeReport {
        var report = ProbeReport(domain: package)
        for domain in domains.map({ $0.lowercased() }) {
            let name = "android:\(domain)"
            switch fileBytes(for: domain, name: FileCheck.Kind.android.rawValue) {
            case .failure(let failure):
                report.add(name, .fail, failure.message)
            case .success(let (bytes, source)):
                let validated = AssetLinksValidator.validate(bytes)
                guard let file = validated.file, validated.isValid else {
                    report.add(name, .fail, "\(source) is invalid (run validate for the details)")
                    continue
                }
                let granted = file.statements.compactMap { statement -> [String]? in
                    guard statement.relations.contains(AssetLinks.handleAllURLs),
                        case .androidApp(package, let prints)? = statement.target
                    else { return nil }
                    return prints.map { $0.uppercased() }
                }
                if granted.isEmpty {
                    report.add(name, .fail, "\(source) does not grant \(AssetLinks.handleAllURLs) to \(package)")
                } else if let expected, !granted.joined().isEmpty, !granted.flatMap({ $0 }).contains(expected) {
                    report.add(
                        name, .fail,
                        "\(source) lists \(package) with other fingerprints "
                            + "(\(granted.flatMap { $0 }.joined(separator: ", "))), not \(expected)"
                    )
                } else {
                    report.add(name, .pass, "\(source) grants \(package) with \(expected ?? "?")")
                }
                passkeys(domain, package: package, fingerprint: expected, android: file, into: &report)
            }
        }
        return report
    }

    /// Upper-case hex bytes with colons, whatever form the fingerprint was given in.
    public static func normalizedFingerprint(_ text: String) -> String {
        let hex = text.uppercased().filter { $0.isHexDigit }
        return stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return String(hex[start..<(hex.index(start, offsetBy: 2, limitedBy: hex.endIndex) ?? hex.endIndex)])
        }.joined(separator: ":")
    }

}
