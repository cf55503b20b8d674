import ArgumentParser

/// Ends a command with an exit code after its output is written: 1 invalid or not matched,
/// 2 usage error or unreadable input.
struct CommandFailure: Error, CustomStringConvertible {
    var code: Int32
    var description: String { "" }

    static let invalid = CommandFailure(code: 1)
    static let unreadable = CommandFailure(code: 2)
}
