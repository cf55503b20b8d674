import AASASites
import AssociationKit
import Foundation

extension ValidateCommand {
    /// The checks with each site's two files compared (`XPL001`, `XPL002`, reported on its
    /// assetlinks.json): where both files of one folder were checked and are valid.
    static func comparingPlatforms(_ results: [FileCheck]) -> [FileCheck] {
        var checks = results
        for (androidIndex, android) in checks.enumerated() where android.kind == .android && android.isValid {
            let folder = (android.path as NSString).deletingLastPathComponent
            guard let androidFile = android.androidFile,
                let appleFile = checks.first(where: {
                    $0.kind == .apple && $0.isValid && ($0.path as NSString).deletingLastPathComponent == folder
                })?.appleFile
            else { continue }
            checks[androidIndex].add(
                PlatformComparison.compare(apple: appleFile, android: androidFile, host: sampleHost(folder: folder)))
        }
        return checks
    }

    /// The host the URLs in messages are shown on: the site folder's name, a name below a
    /// wildcard site's, or `example.com` for a folder not named as a host.
    static func sampleHost(folder: String) -> String {
        let name = (folder as NSString).lastPathComponent
        guard let key = HostName.siteKey(folder: name) else { return "example.com" }
        return key.hasPrefix("*.") ? "www." + key.dropFirst(2) : key
    }
}
