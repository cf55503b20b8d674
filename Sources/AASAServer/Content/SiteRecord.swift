import AASALoop
import AASASiteServing
import AASASites
import AASASystem

/// One site folder as the last load found it: what it serves, its files' checks (without
/// their bytes), the problems of the folder itself, and the names of misnamed files. A
/// reload keeps the very same record, and so the same prepared files, for every folder
/// whose files have the same stat(2) identity as when they were read (`isCurrent`).
public final class SiteRecord: Sendable {
    /// Valid; or invalid and serving its last good files; or invalid with nothing to serve.
    public enum State: String, Sendable {
        case valid
        case keptLastGood = "kept-last-good"
        case refused
    }

    public let site: SiteDirectory.Site
    /// What the site serves; nil when it has no valid file yet.
    public let content: SiteContent?
    /// The files read, in the order of `FileCheck.Kind.inFolder` (the served files, then
    /// expectations.json and fallback.json), then the `well-known/` folder's by name.
    public let checks: [FileSummary]
    /// Problems of the folder (misnamed files, no file at all); the files' own are in `checks`.
    public let folderProblems: [LoadProblem]
    public let state: State
    /// Names in the folder that look like association files but are not (`SITE003`).
    let misnamed: [String]
    /// Served files deleted from the folder whose last copy still serves (`SITE011`).
    public let deletedFiles: [DeletedFile]
    /// The folder's `site.json` (its aliases and problems), and the status it was read with;
    /// nil when the folder has none.
    let settings: SiteSettings?
    let settingsStatus: FileStatus?

    init(
        site: SiteDirectory.Site, content: SiteContent?, checks: [FileSummary], folderProblems: [LoadProblem],
        state: State, misnamed: [String], deletedFiles: [DeletedFile] = [], settings: SiteSettings? = nil,
        settingsStatus: FileStatus? = nil
    ) {
        self.site = site
        self.content = content
        self.checks = checks
        self.folderProblems = folderProblems
        self.state = state
        self.misnamed = misnamed
        self.deletedFiles = deletedFiles
        self.settings = settings
        self.settingsStatus = settingsStatus
    }

    /// The names the folder's `site.json` asks to be served as.
    public var declaredAliases: [String] { settings?.aliases ?? [] }

    /// True when the folder could not be opened or listed (`SITE010`): such a record is
    /// never current, so the next reload reads the folder again.
    var isUnreadable: Bool {
        folderProblems.contains { $0.code == LoadProblem.Code.siteUnreadable.rawValue }
    }

    public var name: String { site.name }

    /// Every problem of the site: its files' (notes left out), then the folder's.
    public var problems: [LoadProblem] {
        let settingsProblems = settings?.problems ?? []
        return checks.isEmpty && folderProblems.isEmpty && settingsProblems.isEmpty
            ? [] : checks.flatMap(\.problems) + folderProblems + settingsProblems
    }

    /// True when the folder still holds exactly the files this record was read from: the same
    /// kinds of file, the same misnamed ones, and each file's stat(2) identity unchanged.
    func isCurrent(
        site other: SiteDirectory.Site, present: [String], misnamed names: [String], hasSettings: Bool
    ) -> Bool {
        guard other == site, names == misnamed, present == checks.map(\.name), hasSettings == (settings != nil)
        else { return false }
        if settings != nil {
            guard let settingsStatus, FileStatus(site.folderPath + "/" + SiteSettings.fileName) == settingsStatus
            else { return false }
        }
        return checks.allSatisfy { check in
            FileStatus(site.folderPath + "/" + check.name).map { $0 == check.status } ?? false
        }
    }
}
