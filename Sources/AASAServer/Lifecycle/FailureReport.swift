import Synchronization

/// Where a part tells the server it failed or ended on its own, from any of its threads (an
/// event loop's `LoopControl`, a `ThreadGroup` whose body returned). `Server` connects it to
/// what the part's `FailurePolicy` does before the part starts; a report made before that (none
/// is expected) waits for the connection. The first report counts: a loop that fails and then
/// returns is one failure.
final class FailureReport: Sendable {
    private struct State {
        var handler: (@Sendable (String) -> Void)?
        var waiting: [String] = []
        var reported = false
    }

    private let state = Mutex(State())

    init() {}

    /// Sends every report, from now on and those waiting, to `handler`.
    func connect(_ handler: @escaping @Sendable (String) -> Void) {
        let waiting = state.withLock { state in
            state.handler = handler
            defer { state.waiting = [] }
            return state.waiting
        }
        for reason in waiting { handler(reason) }
    }

    /// The part is asked to stop: a thread of it that returns from now on has not failed.
    func silence() {
        state.withLock { $0.reported = true }
    }

    /// Drops the handler (the server stopped): it holds the server.
    func disconnect() {
        state.withLock { $0.handler = nil }
    }

    /// The part failed or ended, and why.
    func report(_ reason: String) {
        let handler = state.withLock { state -> (@Sendable (String) -> Void)? in
            guard !state.reported else { return nil }
            state.reported = true
            if state.handler == nil { state.waiting.append(reason) }
            return state.handler
        }
        handler?(reason)
    }
}
