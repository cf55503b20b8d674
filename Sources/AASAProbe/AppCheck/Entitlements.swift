import AASASignedData
import Foundation

/// What `check-app` reads from an app: its app ID and associated domains, from a property
/// list (Xcode's `.entitlements`, or `codesign -d --entitlements :-` output) or from a
/// provisioning profile (a property list signed as CMS, read with OpenSSL).
public struct Entitlements {
    public var applicationIdentifier: String?
    public var teamIdentifier: String?
    public var associatedDomains: [String]

    public struct Unreadable: Error {
        public var reason: String
    }

    public init(contentsOf path: String) throws(Unreadable) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Unreadable(reason: "cannot read the file")
        }
        let bytes = [UInt8](data)
        var plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        if plist == nil, let content = SignedContent.cmsContent(bytes) {
            // A provisioning profile: the entitlements sit under `Entitlements`.
            let profile =
                try? PropertyListSerialization.propertyList(from: Data(content), format: nil) as? [String: Any]
            plist = profile?["Entitlements"] as? [String: Any]
            teamIdentifier = (profile?["TeamIdentifier"] as? [String])?.first
        }
        guard let plist else {
            throw Unreadable(reason: "neither a property list (XML or binary) nor a provisioning profile")
        }
        applicationIdentifier =
            (plist["application-identifier"] ?? plist["com.apple.application-identifier"]) as? String
        teamIdentifier = teamIdentifier ?? plist["com.apple.developer.team-identifier"] as? String
        associatedDomains = plist["com.apple.developer.associated-domains"] as? [String] ?? []
    }
}
