import AssociationKit
import Glibc

/// `AASA_BENCH_ONLY=validate|match|hostile` runs one section (for profiling).
let only = getenv("AASA_BENCH_ONLY").map { String(cString: $0) }
func section(_ name: String) -> Bool { only == nil || only == name }

// Validator: a 128 KiB file, parsed, decoded and checked.
if section("validate") {
let large = Fixtures.large
let largeReport = AssociationFileValidator.validate(large)
precondition(largeReport.file != nil && !largeReport.diagnostics.hasErrors, "the 128 KiB fixture must be valid")
let validateTime = medianTime(iterations: 20) { sink &+= AssociationFileValidator.validate(large).diagnostics.count }
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
print("decide, URL prepared once: \(format(perDecision, 1)) ns/decision = \(format(1e9 / perDecision / 1e6, 2)) M decisions/s (target >= 2 M/s, one core)")
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
let hostileFile = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/*a*a*a*a*a*a*a*a*b*"}]}]}}"#
let hostile = AssociationMatcher(file: AssociationFileValidator.validate(Array(hostileFile.utf8)).file!)
for length in [1_000, 10_000] {
    let text = "https://example.com/b" + String(repeating: "a", count: length)
    let hostileTime = medianTime(iterations: 5) { sink &+= hostile.decide(try! MatchURL(text), appID: "ABCDE12345.com.example.app").outcome == .noMatch ? 1 : 0 }
    print("hostile /*a*a*a*a*a*a*a*a*b* vs /b + \(length) a's: \(format(hostileTime.milliseconds, 3)) ms (target < 10 ms)")
}
let variablesFile = #"{"applinks": {"substitutionVariables": {"v": ["a", "aa", "a*", "*a"]}, "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/$(v)$(v)$(v)$(v)$(v)$(v)$(v)$(v)b*"}]}]}}"#
let variables = AssociationMatcher(file: AssociationFileValidator.validate(Array(variablesFile.utf8)).file!)
for length in [1_000, 10_000] {
    let variablesText = "https://example.com/b" + String(repeating: "a", count: length)
    let variablesTime = medianTime(iterations: 3) { sink &+= variables.decide(try! MatchURL(variablesText), appID: "ABCDE12345.com.example.app").outcome == .noMatch ? 1 : 0 }
    print("hostile /$(v)x8 b* (values a, aa, a*, *a) vs /b + \(length) a's: \(format(variablesTime.milliseconds, 3)) ms")
}
}
if section("validate-parts") {
    let large = Fixtures.large
    let parse = medianTime(iterations: 20) { sink &+= JSONDocument.parse(large).diagnostics.count }
    let root = JSONDocument.parse(large).root!
    let decode = medianTime(iterations: 20) { var d = AssociationFileDecoder(bytes: large); sink &+= d.decode(root) == nil ? 0 : 1 }
    let report = AssociationFileValidator.validate(large)
    print("diagnostics: \(report.diagnostics.count) \(Set(report.diagnostics.map(\.code.rawValue)))")
    print("parts: parse \(format(parse.milliseconds, 3)) ms, decode \(format(decode.milliseconds, 3)) ms")
}
print("(checksum \(sink))")
