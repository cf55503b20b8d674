import CFuzzerDriver
@preconcurrency import Glibc

/// `aasa-fuzz TARGET [libFuzzer options] [CORPUS...]`: runs one fuzz target under libFuzzer.
/// Each target traps (and libFuzzer reports the input) when an invariant fails; a crash,
/// an overflow or an out-of-bounds access in the code under test does the same.
let targets: [String: @Sendable (UnsafeBufferPointer<UInt8>) -> Void] = [
    "apple": FuzzTargets.apple,
    "android": FuzzTargets.android,
    "matcher": FuzzTargets.matcher,
    "http": FuzzTargets.http,
    "probe": FuzzTargets.probe,
    "config": FuzzTargets.config,
    "loop": FuzzTargets.loop,
]

let arguments = CommandLine.arguments
guard arguments.count >= 2, let target = targets[arguments[1]] else {
    let names = targets.keys.sorted().joined(separator: "|")
    fputs("usage: aasa-fuzz \(names) [libFuzzer options] [corpus folders]\n", stderr)
    exit(2)
}
FuzzTargets.selected = target

// libFuzzer sees the program name and the options, without the target's name.
var driverArguments: [UnsafeMutablePointer<CChar>?] =
    ([arguments[0]] + arguments.dropFirst(2)).map { strdup($0) } + [nil]
var count = Int32(driverArguments.count - 1)
let status = driverArguments.withUnsafeMutableBufferPointer { buffer -> Int32 in
    var argv = buffer.baseAddress
    return LLVMFuzzerRunDriver(&count, &argv) { data, size in
        // An exactly sized copy, so AddressSanitizer sees any read past the input.
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size)
        defer { copy.deallocate() }
        if let data, size > 0 { copy.baseAddress!.initialize(from: data, count: size) }
        FuzzTargets.selected?(UnsafeBufferPointer(copy))
        return 0
    }
}
exit(status)
