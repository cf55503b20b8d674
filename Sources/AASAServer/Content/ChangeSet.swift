import AASALoop

/// What a reload must read again: some entries of the sites folder (as inotify named them),
/// or all of them, and whether the certificates.
public struct ChangeSet: Sendable, Equatable {
    /// Entry names in the sites folder; nil for a rescan of every entry.
    public var sites: Set<String>?
    public var certificates: Bool

    public init(sites: Set<String>?, certificates: Bool) {
        self.sites = sites
        self.certificates = certificates
    }

    /// SIGHUP, start-up, or a change the watcher cannot place: everything is looked at again
    /// (unchanged files are still not read twice, `SiteRecord.isCurrent`).
    public static let everything = ChangeSet(sites: nil, certificates: true)

    public var isEmpty: Bool { sites?.isEmpty == true && !certificates }

    /// Both changes together (a burst of events coalesced into one reload).
    public func merged(with other: ChangeSet) -> ChangeSet {
        let sites: Set<String>? =
            if let mine = self.sites, let theirs = other.sites { mine.union(theirs) } else { nil }
        return ChangeSet(sites: sites, certificates: certificates || other.certificates)
    }
}
