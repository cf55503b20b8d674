import Foundation
import Synchronization

@testable import AASAACME

/// A `ChallengeSource` in memory that counts its reads and can hold them (a slow store).
final class MemoryChallenges: ChallengeSource {
    let posted = Mutex<[ChallengeKey: (name: String, keyAuthorization: String)]>([:])
    let reads = Atomic<Int>(0)
    let held = Atomic<Bool>(false)
    /// Microseconds each read takes.
    let delay = Atomic<UInt32>(0)

    func post(_ key: ChallengeKey, name: String, keyAuthorization: String) throws {
        posted.withLock { $0[key] = (name, keyAuthorization) }
    }

    func remove(_ key: ChallengeKey) {
        posted.withLock { _ = $0.removeValue(forKey: key) }
    }

    func find(_ key: ChallengeKey) throws -> (name: String, keyAuthorization: String)? {
        while held.load(ordering: .relaxed) { usleep(1000) }
        if case let delay = delay.load(ordering: .relaxed), delay > 0 { usleep(delay) }
        reads.add(1, ordering: .relaxed)
        return posted.withLock { $0[key] }
    }
}
