/// The files the benchmarks run on.
enum Fixtures {
    /// WWDC20's restaurant file (`$(lang)_$(region)/$(food)`) plus 50 more components, the
    /// shape of a real multi-feature app.
    static let restaurant: String = {
        var components = [
            ##"{"#": "no_universal_links", "exclude": true}"##,
            #"{"/": "/account/*", "exclude": true}"#,
            #"{"/": "/$(lang)_$(region)/$(food)/"}"#,
        ]
        for index in 0..<50 {
            switch index % 5 {
            case 0: components.append(#"{"/": "/feature\#(index)/*"}"#)
            case 1: components.append(#"{"/": "/items/\#(index)/????", "?": {"ref": "?*"}}"#)
            case 2: components.append(#"{"/": "/$(lang)/section\#(index)/*", "caseSensitive": false}"#)
            case 3: components.append(#"{"/": "/promo\#(index)", "?": {"code": "$(alnum)*"}}"#)
            default: components.append(#"{"/": "*/legacy\#(index).html"}"#)
            }
        }
        return """
            {"applinks": {"substitutionVariables": {"food": ["burrito", "pizza", "sushi", "samosa"]},
              "details": [{"appIDs": ["ABCDE12345.com.example.restaurant"], "components": [\(components.joined(separator: ",\n"))]}]}}
            """
    }()

    static let urls = [
        "https://example.com/en_US/pizza/",
        "https://example.com/fr_FR/sushi/",
        "https://example.com/feature10/a/b",
        "https://example.com/items/21/1234?ref=mail",
        "https://example.com/en/section42/menu",
        "https://example.com/promo33?code=SPRING24",
        "https://example.com/old/legacy49.html",
        "https://example.com/account/settings",
        "https://example.com/nowhere/at/all?x=1",
        "https://example.com/en_US/tacos/",
    ]

    /// A realistic file grown to just under 128 KiB: many entries with components and comments.
    static let large: [UInt8] = {
        var entries: [String] = []
        var index = 0
        var size = 0
        while size < 128 * 1024 - 1200 {
            let entry = """
                {"appIDs": ["ABCDE12345.com.example.app\(index)", "ABCDE12345.com.example.app\(index).beta"],
                 "components": [
                   {"\\u0023": "no_universal_links", "exclude": true, "comment": "Links that must stay on the web"},
                   {"/": "/shop\(index)/account/*", "exclude": true},
                   {"/": "/shop\(index)/$(lang)_$(region)/*", "comment": "Localised catalogue"},
                   {"/": "/shop\(index)/item/????", "?": {"ref": "?*", "utm_source": "*"}},
                   {"/": "/shop\(index)/gift", "percentEncoded": false, "caseSensitive": false}
                 ]}
                """
            entries.append(entry)
            size += entry.utf8.count + 2
            index += 1
        }
        let text =
            #"{"applinks": {"details": [\#(entries.joined(separator: ",\n"))]}, "webcredentials": {"apps": ["ABCDE12345.com.example.app0"]}}"#
        return Array(text.utf8)
    }()
}
