import AASALoop
import AASASiteServing
import AssociationKit
import Synchronization

/// The prepared copies of the kinds shared across sites (`WellKnownFile.sharedAcrossSites`:
/// one payment platform's Apple Pay file on thousands of merchant domains), by content, type
/// and cache policy: identical files cost one copy however many sites serve them. Held
/// weakly, so a copy no site serves any more is freed. Used at load time only, never by a
/// request. A shared copy's `Last-Modified` is that of the first file prepared (the bytes,
/// and so the ETag, are the same for all).
final class PreparedFilePool: Sendable {
    static let shared = PreparedFilePool()

    private struct Key: Hashable {
        let body: [UInt8]
        let contentType: String
        let cacheControl: String
    }

    private struct Entry {
        weak var file: PreparedFile?
    }

    private let entries = Mutex<[Key: Entry]>([:])

    /// The shared copy of `body` with these headers, made by `make` when there is none.
    func file(
        body: [UInt8], contentType: String, cacheControl: String, _ make: () -> PreparedFile
    ) -> PreparedFile {
        let key = Key(body: body, contentType: contentType, cacheControl: cacheControl)
        if let file = entries.withLock({ $0[key]?.file }) { return file }
        // Prepared (gzip included) outside the lock, so distinct files load on every core; of
        // two threads preparing the same bytes at once, the first to store its copy wins.
        let made = make()
        return entries.withLock { entries in
            if let file = entries[key]?.file { return file }
            // Forget the copies no site serves any more when the table has doubled since.
            if entries.count >= 64, entries.count.nonzeroBitCount == 1 {
                entries = entries.filter { $0.value.file != nil }
            }
            entries[key] = Entry(file: made)
            return made
        }
    }

    /// How many distinct copies are alive (tests and the measure in docs/serving.md).
    var count: Int { entries.withLock { $0.values.filter { $0.file != nil }.count } }
}
