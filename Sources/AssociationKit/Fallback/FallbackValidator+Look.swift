extension FallbackValidator {
    /// `icon`: an https URL with a fixed host; a page is https, and an http image on it is
    /// mixed content (W3C, "Mixed Content" §4), so http is refused here rather than lost there.
    mutating func icon(_ value: JSONValue) -> String? {
        guard let text = value.stringValue else {
            report(.fallbackWrongType, "icon must be an https:// URL string, found \(value.typeName)", value)
            return nil
        }
        guard let url = Self.fixedURL(text), url.origin.prefix(8).map({ $0 | 0x20 }).elementsEqual("https://".utf8)
        else {
            report(
                .fallbackInsecureIcon,
                "icon: \"\(text)\" is not an https:// URL with a fixed host, such as "
                    + "\"https://www.example.com/icon.png\"", value)
            return nil
        }
        return url.text
    }

    /// A URL with no placeholder: `preview.image` and `icon`.
    static func fixedURL(_ text: String) -> URLTemplate? {
        guard let parsed = try? URLTemplate(text),
            parsed.parts.allSatisfy({ if case .literal = $0 { true } else { false } })
        else { return nil }
        return parsed
    }

    mutating func color(_ value: JSONValue) -> AccentColor? {
        guard let text = value.stringValue, let color = AccentColor(text) else {
            let found = value.stringValue.map { "\"\($0)\"" } ?? value.typeName
            report(
                .fallbackInvalidColor, "accentColor must be a #RRGGBB colour such as \"#0a66d8\", found \(found)", value
            )
            return nil
        }
        return color
    }

    /// `strings`: `{"de": {"title": …}, "pt-BR": {…}}`, each key a language tag, each value the
    /// texts it replaces.
    mutating func strings(_ value: JSONValue) -> [FallbackTexts] {
        guard let members = value.members else {
            report(
                .fallbackWrongType,
                "strings must be an object of language tags, such as {\"de\": {\"title\": …}}, "
                    + "found \(value.typeName)", value)
            return []
        }
        var entries: [FallbackTexts] = []
        for member in members {
            guard LanguageTag.isWellFormed(member.key) else {
                let shown = member.key.utf8.count > 40 ? String(member.key.prefix(40)) + "…" : member.key
                diagnostics.append(
                    Diagnostic(
                        .fallbackInvalidLanguage,
                        "strings: \"\(shown)\" is not a language tag (BCP 47) such as \"de\" or \"pt-BR\"",
                        at: member.keyLocation, valueAt: member.value.range.lowerBound))
                continue
            }
            guard let texts = member.value.members else {
                report(
                    .fallbackWrongType,
                    "strings.\(member.key) must be an object of texts, found "
                        + member.value.typeName, member.value)
                continue
            }
            var entry = FallbackTexts(language: member.key)
            for text in texts {
                guard FallbackTexts.keys.contains(text.key) else {
                    var message =
                        "strings.\(member.key): \"\(text.key)\" is not a text of the page; they are "
                        + FallbackTexts.keys.joined(separator: ", ")
                    if let suggestion = Spelling.closest(to: text.key, among: FallbackTexts.keys) {
                        message += ". Did you mean \"\(suggestion)\"?"
                    }
                    diagnostics.append(
                        Diagnostic(
                            .fallbackUnknownText, message, at: text.keyLocation, valueAt: text.value.range.lowerBound))
                    continue
                }
                guard let string = text.value.stringValue else {
                    report(
                        .fallbackWrongType,
                        "strings.\(member.key).\(text.key) must be a string, found \(text.value.typeName)", text.value)
                    continue
                }
                switch text.key {
                case "title": entry.title = string
                case "description": entry.description = string
                case "store": entry.store = string
                default: entry.web = string
                }
            }
            entries.append(entry)
        }
        return entries
    }
}
