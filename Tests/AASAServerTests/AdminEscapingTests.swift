import Testing

@testable import AASALoop
@testable import AASAServer

/// The admin listener's escapers work on bytes: a grapheme cluster must never carry a markup
/// character through (docs/security.md, "The admin listener").
@Suite("admin escaping")
struct AdminEscapingTests {
    static let html: [(String, String)] = [
        ("plain", "plain"),
        ("<b>&'\"", "&lt;b&gt;&amp;&#39;&quot;"),
        // A combining acute accent joins the quote into one Character.
        ("x\"\u{301} autofocus onfocus=alert(1)", "x&quot;\u{301} autofocus onfocus=alert(1)"),
        ("'\u{301}", "&#39;\u{301}"),
        // U+0600 (Arabic number sign) is a prepended mark: "\u{600}<" is one Character.
        ("\u{600}<img src=x>", "\u{600}&lt;img src=x&gt;"),
        ("\u{600}&", "\u{600}&amp;"),
        ("\r\n<", "\r\n&lt;"),
        ("<\u{200D}>", "&lt;\u{200D}&gt;"),
        ("👩‍👩‍👧<", "👩‍👩‍👧&lt;"),
        ("é<\u{301}", "é&lt;\u{301}"),
        ("", ""),
    ]

    @Test("HTML escaping by bytes", arguments: html)
    func escapesHTML(input: String, expected: String) {
        #expect(HTMLText.escape(input) == expected)
        #expect(StatusPage.escape(input) == expected)
    }

    static let labels: [(String, String)] = [
        ("example.com", "example.com"),
        ("a\"b", "a\\\"b"),
        ("a\\b", "a\\\\b"),
        ("a\nb", "a\\nb"),
        // "\r\n" is one Character that equals neither "\n" nor anything else escaped.
        ("a\r\nb", "a\r\\nb"),
        ("\"\u{301}", "\\\"\u{301}"),
        ("\\\u{301}", "\\\\\u{301}"),
        ("\u{600}\"", "\u{600}\\\""),
    ]

    @Test("Prometheus label values escaped by bytes", arguments: labels)
    func escapesLabels(input: String, expected: String) {
        #expect(PrometheusText.escape(input) == expected)
        var text = PrometheusText()
        text.sample("aasa_x", [("site", input)], 1)
        #expect(text.text == "aasa_x{site=\"\(expected)\"} 1\n")
        #expect(text.text.utf8.filter { $0 == UInt8(ascii: "\n") }.count == 1)
    }

    @Test("HELP text escapes backslash and line feed, not quotes; a family's HELP and TYPE are one line each")
    func escapesHelp() {
        #expect(PrometheusText.escapeHelp(#"a\b "q""#) == #"a\\b "q""#)
        #expect(PrometheusText.escapeHelp("one\ntwo\r\nthree") == #"one\ntwo\#r\nthree"#)
        var text = PrometheusText()
        text.family("aasa_x_total", type: .counter, help: "forged\naasa_x_total 99")
        #expect(text.text == "# HELP aasa_x_total forged\\naasa_x_total 99\n# TYPE aasa_x_total counter\n")
        #expect(text.families == ["aasa_x_total"])
    }

    @Test("samples: integers as integers, `real` values as Swift writes a Double, non-finite as the format spells them")
    func sampleValues() {
        var text = PrometheusText()
        text.sample("a", [], 3)
        text.sample("b", [], 0.5)
        text.sample("c", [], real: 2)
        text.sample("d", [], real: .infinity)
        text.sample("e", [], real: .nan)
        #expect(text.text == "a 3\nb 0.5\nc 2.0\nd +Inf\ne NaN\n")
    }
}
