/// What one connection may still do in the current turn of its loop (`LoopSettings`'s
/// per-turn shares): counted down as it is read from and answered.
package struct TurnBudget {
    var bytes: Int
    var requests: Int

    init(_ settings: LoopSettings) {
        bytes = settings.readBytesPerTurn
        requests = settings.requestsPerTurn
    }

    var isSpent: Bool { bytes <= 0 || requests <= 0 }
}
