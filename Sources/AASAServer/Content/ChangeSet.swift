import AASALoop

/// What a reload must read again: some entries of the sites folder (as inotify named them),
/// or all of them, and whether the certificates.
public struct ChangeSet: Sendable, Equatable {
    /// Entry names in the sites folder; nil for a rescan of every entry.
    public var sites: Set<String>?
    public var certificates: Bool
    /// With `certificates`: the folders below `--certs` (relative paths, "" for the folder
    /// itself) whose pairs are looked at again; nil for all of them.
    public var certificateFolders: Set<String>?

    public init(sites: Set<String>?, certificates: Bool, certificateFolders: Set<String>? = nil) {
        self.sites = sites
        self.certificates = certificates
        self.certificateFolders = certificates ? certificateFolders : nil
    }

    /// SIGHUP, start-up, or a change the watcher cannot place: everything is looked at again
    /// (unchanged files are still not read twice, `SiteRecord.isCurrent`).
    public static let everything = ChangeSet(sites: nil, certificates: true)

    public var isEmpty: Bool { sites?.isEmpty == true && !certificates }

    /// Both changes together (a burst of events coalesced into one reload).
    public func merged(with other: ChangeSet) -> ChangeSet {
        let sites: Set<String>? =
            if let mine = self.sites, let theirs = other.sites { mine.union(theirs) } else { nil }
        // Certificate folders: the union of both sets, unless one side had none (nothing
        // changed there) or looked at them all (nil).
        let folders: Set<String>? =
            switch (certificates, other.certificates) {
            case (true, true):
                if let mine = certificateFolders, let theirs = other.certificateFolders {
                    mine.union(theirs)
                } else {
                    nil
                }
            case (true, false): certificateFolders
            case (false, true): other.certificateFolders
            case (false, false): nil
            }
        return ChangeSet(
            sites: sites, certificates: certificates || other.certificates, certificateFolders: folders)
    }
}
