import AASALoop
import AASASiteServing
import Synchronization

/// What the admin pages derive from a served file (`Owner` a `PreparedFile`) or from what a
/// site serves (a `SiteContent`) on first use (the URL tester's compiled matcher, a clean
/// file's notes, what a site's files say about each other), kept for the `capacity` owners
/// used last: deriving it for every file at load time would cost memory on every site for
/// pages few people open, and deriving it on every view would let each view of a page cost a
/// validation of every file on it. An entry holds its owner, so an identity is never reused
/// while it is cached (a reload makes new owners for changed files).
final class ServedFileCache<Owner: AnyObject & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let file: Owner
        let value: Value
        var used: Int
    }

    private struct Books {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Counts uses, so the entry used longest ago goes first.
        var clock = 0
    }

    let capacity: Int
    private let books = Mutex(Books())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value for `file`, made by `make` (outside the lock) when it is not cached; nil when
    /// `make` gives none, which is not cached.
    func value(for file: Owner, make: (Owner) -> Value?) -> Value? {
        let key = ObjectIdentifier(file)
        let found = books.withLock { books -> Value? in
            guard var entry = books.entries[key] else { return nil }
            books.clock += 1
            entry.used = books.clock
            books.entries[key] = entry
            return entry.value
        }
        if let found { return found }
        guard let value = make(file) else { return nil }
        books.withLock { books in
            books.clock += 1
            books.entries[key] = Entry(file: file, value: value, used: books.clock)
            guard books.entries.count > capacity,
                let oldest = books.entries.min(by: { $0.value.used < $1.value.used })?.key
            else { return }
            books.entries[oldest] = nil
        }
        return value
    }
}
