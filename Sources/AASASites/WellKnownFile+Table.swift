import AssociationKit

extension WellKnownFile {
    /// The row of each kind (`FileCheck+Kind.swift`).
    public static func row(_ kind: FileCheck.Kind) -> WellKnownFile { kind.file }

    /// Every row, in `FileCheck.Kind`'s order (the order a site folder's files are read in).
    public static let all = FileCheck.Kind.allCases.map(\.row)

    /// The rows served at fixed paths, in the order of their slots in a `SiteContent`.
    public static let served = all.filter(\.isServed)

    /// The row of a file of the site's `well-known/` folder.
    public static let folder = FileCheck.Kind.wellKnownFolder.file

    /// The folder in a site folder whose files are served at `/.well-known/NAME`.
    public static let folderName = "well-known"

    /// A `well-known/` file's `Content-Type`, by its extension.
    public static func contentType(forName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "text/plain" }
        switch name[name.index(after: dot)...].lowercased() {
        case "json": return "application/json"
        case "txt": return "text/plain"
        default: return "application/octet-stream"
        }
    }

    /// True when `name` may be served from `well-known/`: a plain file name, not hidden (a
    /// ConfigMap's `..data`), and not one a row serves at a fixed path (that file belongs in
    /// the site folder itself).
    public static func isServable(folderFile name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/")
            && !served.contains { $0.paths.contains("/.well-known/" + name) }
    }
}
