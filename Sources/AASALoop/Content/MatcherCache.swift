import AssociationKit
import Synchronization

/// Compiled matchers for the status page's URL tester, made on first use from the bytes a
/// site serves and kept for the most recently tested files only: compiling every site's
/// file at load time would cost memory on every site for a page few people open.
package final class MatcherCache: Sendable {
    private struct Entry {
        let file: PreparedFile
        /// An `AssociationMatcher` or an `AssetLinksMatcher`, by the file's kind.
        let matcher: any Sendable
    }

    let capacity: Int
    /// Oldest use first.
    private let entries = Mutex<[Entry]>([])

    package init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// The matcher for the Apple file `file` (served, hence valid), compiled if not cached.
    package func matcher(for file: PreparedFile) -> AssociationMatcher? {
        cached(file) { AssociationFileValidator.validate($0.json).file.map(AssociationMatcher.init(file:)) }
    }

    /// The matcher for the Android file `file`, compiled if not cached.
    package func androidMatcher(for file: PreparedFile) -> AssetLinksMatcher? {
        cached(file) { AssetLinksValidator.validate($0.json).file.map(AssetLinksMatcher.init(file:)) }
    }

    private func cached<Matcher: Sendable>(_ file: PreparedFile, compile: (PreparedFile) -> Matcher?) -> Matcher? {
        if let found = entries.withLock({ entries -> Matcher? in
            guard let index = entries.firstIndex(where: { $0.file === file }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.matcher as? Matcher
        }) {
            return found
        }
        guard let matcher = compile(file) else { return nil }
        entries.withLock { entries in
            entries.append(Entry(file: file, matcher: matcher))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
        return matcher
    }
}
