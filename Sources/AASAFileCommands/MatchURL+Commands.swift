import AssociationKit

extension MatchURL {
    /// A URL from the command line: a bad one is said on stderr and ends the command with
    /// exit 2, as for every unreadable input.
    static func fromArgument(_ text: String) throws -> MatchURL {
        do {
            return try MatchURL(text)
        } catch {
            StandardStreams.writeError("error: \(error.description)\n")
            throw CommandFailure.unreadable
        }
    }
}
