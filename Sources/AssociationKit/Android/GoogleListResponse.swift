/// Google's Digital Asset Links API (`statements:list`), as the server's watch and `probe
/// --google` ask it: the query for a domain's `handle_all_urls` statements, and the answer read
/// (docs/watches.md, "Google's view"; developers.google.com/digital-asset-links/reference/rest).
public enum GoogleListResponse: Equatable, Sendable {
    /// What Google holds of the domain's file, by meaning.
    case statements(AppLinkGrants)
    /// Google could not fetch or read the domain's file: its `errorCode` list, and the error
    /// lines of `debugString`.
    case failing(codes: [String], errors: [String])
    /// Not the expected JSON: what is wrong with it.
    case unreadable(String)

    public static let defaultURL = "https://digitalassetlinks.googleapis.com/v1/statements:list"

    /// `url` with the query for `domain` appended (`key`, if any, is `&key=…`).
    public static func query(_ url: String, domain: String, key: String = "") -> String {
        let separator = url.contains("?") ? "&" : "?"
        return url + separator + "source.web.site=https://\(domain)&relation=\(AssetLinks.handleAllURLs)"
            + "&return_relation_extensions=true" + key
    }

    /// A `ListResponse`'s bytes: with a non-empty `errorCode`, `failing`; else its `statements`.
    public init(_ body: [UInt8]) {
        guard let root = AppLinkGrants.root(body), root.members != nil else {
            self = .unreadable("not a Digital Asset Links ListResponse: not a JSON object")
            return
        }
        if let codes = root["errorCode"] {
            guard let list = codes.arrayValue?.compactMap(\.stringValue) else {
                self = .unreadable("not a Digital Asset Links ListResponse: errorCode is not a list")
                return
            }
            if !list.isEmpty {
                let lines = (root["debugString"]?.stringValue ?? "").split(separator: "\n").map {
                    String($0.trimmingSpaces)
                }
                self = .failing(codes: list, errors: lines.filter { $0.hasPrefix("* Error") || $0.hasPrefix("Error") })
                return
            }
        }
        guard let statements = root["statements"].map({ $0.arrayValue }) ?? [] else {
            self = .unreadable("not a Digital Asset Links ListResponse: statements is not a list")
            return
        }
        guard let grants = AppLinkGrants(statements: statements) else {
            self = .unreadable("not a Digital Asset Links ListResponse: a statement is not an object")
            return
        }
        self = .statements(grants)
    }
}
