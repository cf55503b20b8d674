import AASASites
import AssociationKit
import Testing

/// The table of kinds: one row per kind, paths that do not collide, the policies the contract
/// names, and `site.json`'s keys about the well-known files.
@Suite("the table of served kinds")
struct WellKnownFileTests {
    @Test("every kind has its row; fixed paths are unique; every served path is under /.well-known/ but Apple's root")
    func table() {
        #expect(WellKnownFile.all.map(\.kind) == FileCheck.Kind.allCases)
        let paths = WellKnownFile.served.flatMap(\.paths)
        #expect(Set(paths).count == paths.count)
        #expect(paths.filter { !$0.hasPrefix("/.well-known/") } == ["/apple-app-site-association"])
        #expect(!FileCheck.Kind.inFolder.contains(.wellKnownFolder))
        #expect(FileCheck.Kind.served.contains(.applePay) && FileCheck.Kind.served.contains(.securityTxt))
    }

    @Test(
        "content types, limits and cache policies as docs/serving.md lists them",
        arguments: [
            (FileCheck.Kind.apple, "application/json", 131_072, WellKnownFile.CachePolicy.server),
            (.webauthn, "application/json", 131_072, .fixed("no-cache")),
            (.passkeyEndpoints, "application/json", 131_072, .fixed("no-cache")),
            (.applePay, "text/plain", 65_536, .fixed("max-age=3600")),
            (.securityTxt, "text/plain; charset=utf-8", 131_072, .fixed("max-age=3600")),
        ])
    func rows(_ kind: FileCheck.Kind, _ type: String, _ limit: Int, _ policy: WellKnownFile.CachePolicy) {
        let row = kind.file
        #expect(row.contentType == type && row.sizeLimit == limit && row.cachePolicy == policy)
        #expect(row.cacheControl(server: "max-age=86400", site: "max-age=5") == "max-age=5")
    }

    @Test(
        "a well-known/ file's content type by its extension",
        arguments: [
            ("gpc.json", "application/json"), ("mta-sts.txt", "text/plain"), ("nodeinfo", "text/plain"),
            ("keys.JSON", "application/json"), ("logo.png", "application/octet-stream"),
        ])
    func folderTypes(_ name: String, _ type: String) {
        #expect(WellKnownFile.contentType(forName: name) == type)
    }

    @Test(
        "names a well-known/ folder may serve",
        arguments: [
            ("gpc.json", true), ("nodeinfo", true), (".hidden", false), ("..data", false), ("security.txt", false),
            ("webauthn", false), ("apple-developer-merchantid-domain-association.txt", false), ("", false),
        ])
    func servable(_ name: String, _ expected: Bool) {
        #expect(WellKnownFile.isServable(folderFile: name) == expected)
    }

    @Test("site.json: changePassword and cacheControl read, or refused with SITE030 and SITE031")
    func siteSettings() {
        let good = SiteSettings(
            Array(
                (#"{"aliases": ["go.example.com"], "changePassword": "https://example.com/account/password", "#
                    + #""cacheControl": {"webauthn": "max-age=60", "well-known": "no-store"}}"#).utf8),
            path: "site.json", site: "example.com")
        #expect(good.problems.isEmpty)
        #expect(good.changePassword == "https://example.com/account/password")
        #expect(good.cacheControl == [.webauthn: "max-age=60", .wellKnownFolder: "no-store"])
        #expect(good.aliases == ["go.example.com"])
        for (text, code) in [
            (#"{"changePassword": "http://example.com/pw"}"#, "SITE030"),
            (#"{"changePassword": "/account/password"}"#, "SITE030"),
            (#"{"changePassword": "https://example.com/a\r\nSet-Cookie: x"}"#, "SITE030"),
            (#"{"changePassword": 3}"#, "SITE030"),
            (#"{"cacheControl": "no-cache"}"#, "SITE031"),
            (#"{"cacheControl": {"fallback.json": "no-cache"}}"#, "SITE031"),
            (#"{"cacheControl": {"webauthn": ""}}"#, "SITE031"),
            (#"{"cacheControl": {"webauthn": "no-cache\r\nX: y"}}"#, "SITE031"),
        ] {
            let settings = SiteSettings(Array(text.utf8), path: "site.json", site: "example.com")
            #expect(settings.problems.map(\.code) == [code], "\(text)")
            #expect(settings.changePassword == nil && settings.cacheControl.isEmpty, "\(text)")
        }
    }

    @Test("a check by kind goes through the table: security.txt's codes, the folder's note by name")
    func checks() {
        let expired = FileCheck.check(
            Array("Contact: mailto:a@example.com\nExpires: 2020-01-01T00:00:00Z\n".utf8), as: .securityTxt)
        #expect(!expired.isValid && expired.diagnostics.map(\.code) == [.securityTxtExpired])
        let note = FileCheck.check([], as: .wellKnownFolder, name: "my-thing")
        #expect(note.isValid && note.diagnostics.map(\.code) == [.wellKnownUnregistered])
        #expect(FileCheck.check(Array("abc".utf8), as: .applePay).diagnostics.isEmpty)
    }
}
