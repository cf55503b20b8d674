/// The site files tests write most: an Apple file that names one app
/// (`ABCDE12345.com.example.APP`), so a test that serves, swaps or checks a file says only
/// what differs (the app, the path) and not the whole JSON.
public enum SiteFixtures {
    /// The app ID of `app` as the fixtures write it.
    public static func appID(_ app: String = "app") -> String {
        "ABCDE12345.com.example.\(app)"
    }

    /// An Apple file giving `app` the URL paths matching `path` (one `components` rule).
    public static func oneAppAASA(_ app: String = "app", path: String = "/*") -> String {
        #"{"applinks": {"details": [{"appIDs": ["\#(appID(app))"], "components": [{"/": "\#(path)"}]}]}}"#
    }

    /// The same with the older `paths` key in place of `components`.
    public static func oneAppAASA(_ app: String = "app", paths path: String) -> String {
        #"{"applinks": {"details": [{"appIDs": ["\#(appID(app))"], "paths": ["\#(path)"]}]}}"#
    }
}

extension SiteFixtures {
    /// An Apple file with `webcredentials` alone (no links): the smallest valid file a served
    /// site needs, for tests about the server rather than the file.
    public static func webCredentialsAASA(_ app: String = "app") -> String {
        #"{"webcredentials": {"apps": ["\#(appID(app))"]}}"#
    }

    /// An Apple file cut short: not JSON, so a load refuses it (a reload keeps the last good copy).
    public static let truncatedAASA = #"{ "applinks": "#

    /// An Apple file with a trailing comma on line 2, at column 29: `JSON003`, an error at a known place.
    public static let trailingCommaAASA = "{\n  \"applinks\": {\"details\": [],}\n}\n"

    /// An Apple file that is JSON but names an app ID without a team (`nodot`): a validation error.
    public static let badAppIDAASA = #"{"applinks": {"details": [{"appIDs": ["nodot"], "components": [{"/": "/a"}]}]}}"#

    /// An Apple file of another team's app (`ABCDE12345.com.secret.app`), for files a test must not see served.
    public static let secretAASA =
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.secret.app"], "paths": ["/*"]}]}}"#
}

extension SiteFixtures {
    /// The SHA-256 fingerprint the Android fixtures give their app's signing certificate.
    public static let androidFingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    /// An assetlinks.json handing all URLs to one Android app (`com.example.APP`).
    public static func oneAppAssetLinks(_ app: String = "app") -> String {
        #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "#
            + #""package_name": "com.example.\#(app)", "sha256_cert_fingerprints": ["\#(androidFingerprint)"]}}]"#
    }
}
