import Foundation
import Testing

extension RunningServer {
    /// Each site's line about a platform's cache on /sites.json (`cdn`, `google`), by site name.
    func watchLines(_ member: String, _ query: String = "") throws -> [String: [String: Any]] {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(adminText("/sites.json\(query)").utf8)) as? [String: Any])
        let list = try #require(document["sites"] as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: list.compactMap { site in
                (site["name"] as? String).flatMap { name in (site[member] as? [String: Any]).map { (name, $0) } }
            })
    }

    /// The admin listener's answer to a GET of `path`, as text.
    func adminText(_ path: String) throws -> String {
        let port = try #require(adminPort)
        return String(decoding: try Curl.request("http://127.0.0.1:\(port)\(path)").body, as: UTF8.self)
    }
}
