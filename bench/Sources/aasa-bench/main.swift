import AssociationKit
import Glibc

/// `AASA_BENCH_ONLY=validate|match|hostile|slow-validate|slow-match` runs one section (for profiling).
let only = getenv("AASA_BENCH_ONLY").map { String(cString: $0) }
func section(_ name: String) -> Bool { only == nil || only == name }

// Validator: a 128 KiB file, parsed, decoded and checked.
if section("validate") {
    let large = Fixtures.large
    let largeReport = AssociationFileValidator.validate(large)
    precondition(largeReport.file != nil && !largeReport.diagnostics.hasErrors, "the 128 KiB fixture must be valid")
    let validateTime = medianTime(iterations: 20) {
        sink &+= AssociationFileValidator.validate(large).diagnostics.count
    }
    print("validate 128 KiB file (\(large.count) bytes): \(format(validateTime.milliseconds, 3)) ms (target < 5 ms)")
}

// Matcher: decisions per second on the restaurant file plus 50 components.
if section("match") {
    let file = AssociationFileValidator.validate(Array(Fixtures.restaurant.utf8)).file!
    let matcher = AssociationMatcher(file: file)
    let app = matcher.appIDs[0]
    let prepared = try! Fixtures.urls.map { try MatchURL($0) }
    for url in prepared { sink &+= matcher.decide(url, appID: app).outcome == .match ? 1 : 0 }  // warm the URL caches
    let rounds = 20_000
    let decideTime = medianTime(iterations: rounds) {
        for url in prepared { sink &+= matcher.decide(url, appID: app).ruleIndex ?? 0 }
    }
    let perDecision = decideTime.nanoseconds / Double(prepared.count)
    print(
        "decide, URL prepared once: \(format(perDecision, 1)) ns/decision = \(format(1e9 / perDecision / 1e6, 2)) M decisions/s (target >= 2 M/s, one core)"
    )
    let endToEndTime = medianTime(iterations: 2_000) {
        for text in Fixtures.urls { sink &+= matcher.decideAll(try! MatchURL(text)).count }
    }
    let perURL = endToEndTime.nanoseconds / Double(Fixtures.urls.count)
    print("parse URL + decide every app: \(format(perURL, 1)) ns/URL = \(format(1e9 / perURL / 1e6, 2)) M URLs/s")
}

// The hostile pattern WWDC20 warned about. The cheap filters would reject a URL without a
// "b" or not ending like the pattern, so the text starts with "b" and the pattern ends with
// "*": every filter passes and the full engine runs.
if section("hostile") {
    let hostileFile =
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/*a*a*a*a*a*a*a*a*b*"}]}]}}"#
    let hostile = AssociationMatcher(file: AssociationFileValidator.validate(Array(hostileFile.utf8)).file!)
    for length in [1_000, 10_000] {
        let text = "https://example.com/b" + String(repeating: "a", count: length)
        let hostileTime = medianTime(iterations: 5) {
            sink &+=
                hostile.decide(try! MatchURL(text), appID: "ABCDE12345.com.example.app").outcome == .noMatch ? 1 : 0
        }
        print(
            "hostile /*a*a*a*a*a*a*a*a*b* vs /b + \(length) a's: \(format(hostileTime.milliseconds, 3)) ms (target < 10 ms)"
        )
    }
    let variablesFile =
        #"{"applinks": {"substitutionVariables": {"v": ["a", "aa", "a*", "*a"]}, "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/$(v)$(v)$(v)$(v)$(v)$(v)$(v)$(v)b*"}]}]}}"#
    let variables = AssociationMatcher(file: AssociationFileValidator.validate(Array(variablesFile.utf8)).file!)
    for length in [1_000, 10_000] {
        let variablesText = "https://example.com/b" + String(repeating: "a", count: length)
        let variablesTime = medianTime(iterations: 3) {
            sink &+=
                variables.decide(try! MatchURL(variablesText), appID: "ABCDE12345.com.example.app").outcome == .noMatch
                ? 1 : 0
        }
        print(
            "hostile /$(v)x8 b* (values a, aa, a*, *a) vs /b + \(length) a's: \(format(variablesTime.milliseconds, 3)) ms"
        )
    }
}
if section("validate-parts") {
    let large = Fixtures.large
    let parse = medianTime(iterations: 20) { sink &+= JSONDocument.parse(large).diagnostics.count }
    let root = JSONDocument.parse(large).root!
    let decode = medianTime(iterations: 20) {
        var d = AssociationFileDecoder(bytes: large)
        sink &+= d.decode(root) == nil ? 0 : 1
    }
    let report = AssociationFileValidator.validate(large)
    print("diagnostics: \(report.diagnostics.count) \(Set(report.diagnostics.map(\.code.rawValue)))")
    print("parts: parse \(format(parse.milliseconds, 3)) ms, decode \(format(decode.milliseconds, 3)) ms")
}

// Inputs that were super-linear before (found by fuzzing): each must validate or match in
// well under 50 ms. Times in milliseconds, release build.
if section("slow-validate") {
    let wrongTyped = Array(
        ("{\"applinks\": {\"details\": [" + Array(repeating: "1", count: 65_000).joined(separator: ",") + "]}}").utf8)
    let wrongTypedTime = medianTime(samples: 3, iterations: 1) {
        sink &+= AssociationFileValidator.validate(wrongTyped).diagnostics.count
    }
    print(
        "validate \(wrongTyped.count) bytes, 65,000 wrong-typed details: \(format(wrongTypedTime.milliseconds, 1)) ms")
    let unclosed = Array(
        ("{\"applinks\": {\"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \""
            + String(repeating: "$(", count: 64_000) + "\"}]}]}}").utf8)
    let unclosedTime = medianTime(samples: 3, iterations: 1) {
        sink &+= AssociationFileValidator.validate(unclosed).diagnostics.count
    }
    print("validate \(unclosed.count) bytes, 64,000 unclosed $(: \(format(unclosedTime.milliseconds, 1)) ms")
    // Other shapes near the size guard: unknown keys (each with a did-you-mean), duplicate
    // keys, many components (reachability is checked pairwise), many apps.
    let app = "\"appIDs\": [\"ABCDE12345.com.example.app\"]"
    let shapes: [(String, String)] = [
        (
            "10,000 unknown keys",
            "{\"applinks\": {\"details\": [{\(app), \"components\": [{\"/\": \"/a\", "
                + (0..<10_000).map { "\"k\($0)\": 1" }.joined(separator: ", ") + "}]}]}}"
        ),
        (
            "20,000 duplicate keys",
            "{\"applinks\": {\"details\": [{\(app), \"components\": [{"
                + Array(repeating: "\"/\": \"/a\"", count: 12_000).joined(separator: ", ") + "}]}]}}"
        ),
        (
            "8,000 components",
            "{\"applinks\": {\"details\": [{\(app), \"components\": ["
                + (0..<8_000).map { "{\"/\": \"/p\($0)/*\"}" }.joined(separator: ", ") + "]}]}}"
        ),
        (
            "8,000 wildcard components",
            "{\"applinks\": {\"details\": [{\(app), \"components\": ["
                + (0..<8_000).map { "{\"/\": \"*\($0)*\"}" }.joined(separator: ", ") + "]}]}}"
        ),
        (
            "4,000 apps",
            "{\"applinks\": {\"details\": [{\"appIDs\": ["
                + (0..<4_000).map { "\"ABCDE12345.com.example.a\($0)\"" }.joined(separator: ", ")
                + "], \"components\": [{\"/\": \"/a\"}]}]}}"
        ),
        (
            "4,000 details",
            "{\"applinks\": {\"details\": ["
                + Array(repeating: "{\(app), \"components\": [{\"/\": \"/a\"}]}", count: 2_000).joined(separator: ", ")
                + "]}}"
        ),
    ]
    for (name, text) in shapes {
        let bytes = Array(text.utf8)
        let time = medianTime(samples: 3, iterations: 1) {
            sink &+= AssociationFileValidator.validate(bytes).diagnostics.count
        }
        print("validate \(bytes.count) bytes, \(name): \(format(time.milliseconds, 1)) ms")
    }
    let values = (0..<1_000).map { "\"*\($0)\"" }.joined(separator: ", ")
    let wildcardFile =
        "{\"applinks\": {\"substitutionVariables\": {\"v\": [\(values)]}, \"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/"
        + String(repeating: "$(v)", count: 1_000) + "\"}]}]}}"
    let wildcardValidateTime = medianTime(samples: 3, iterations: 1) {
        sink &+= AssociationFileValidator.validate(Array(wildcardFile.utf8)).diagnostics.count
    }
    print(
        "validate \(wildcardFile.utf8.count) bytes, 1,000 wildcard values used 1,000 times: \(format(wildcardValidateTime.milliseconds, 1)) ms"
    )
}
if section("slow-match") {
    let values = (0..<1_000).map { "\"*\($0)\"" }.joined(separator: ", ")
    let wildcardFile =
        "{\"applinks\": {\"substitutionVariables\": {\"v\": [\(values)]}, \"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/"
        + String(repeating: "$(v)", count: 1_000) + "\"}]}]}}"
    let wildcards = AssociationMatcher(file: AssociationFileValidator.validate(Array(wildcardFile.utf8)).file!)
    let digits = "https://example.com/" + String((0..<4_000).map { Character(String($0 % 10)) })
    let wildcardTime = medianTime(samples: 3, iterations: 1) {
        sink &+= wildcards.decide(try! MatchURL(digits), appID: "ABCDE12345.com.example.app").outcome == .match ? 1 : 0
    }
    print(
        "match 1,000 wildcard values *N used 1,000 times vs a 4,000-character path: \(format(wildcardTime.milliseconds, 1)) ms"
    )
}
print("(checksum \(sink))")
