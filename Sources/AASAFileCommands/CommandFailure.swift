import ArgumentParser

/// Ends a command with an exit code after its output is written: 1 invalid or not matched,
/// 2 usage error or unreadable input.
package struct CommandFailure: Error, CustomStringConvertible {
    package var code: Int32
    package init(code: Int32) { self.code = code }

    package var description: String { "" }

    package static let invalid = CommandFailure(code: 1)
    package static let unreadable = CommandFailure(code: 2)
}
