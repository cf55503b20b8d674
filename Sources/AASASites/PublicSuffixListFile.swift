import AASASystem
import AssociationKit

/// The system's copy of the Public Suffix List, read once per process where it is first
/// needed (a `webauthn` file's check, the ACME on-demand budget): Debian's `publicsuffix`
/// package keeps it current with the distribution (docs/ARCHITECTURE.md, "The Public Suffix
/// List"). A list that cannot be read is said so where it was needed, never guessed at.
public enum PublicSuffixListFile {
    /// Where Debian's `publicsuffix` package installs it (and Fedora's `publicsuffix-list`).
    public static let defaultPath = "/usr/share/publicsuffix/public_suffix_list.dat"
    /// The list is about 250 KB; anything far larger is not it.
    static let readLimit = 16 << 20

    /// The list at `defaultPath`, read at the first use.
    public static let system: Result<PublicSuffixList, PublicSuffixList.Unavailable> = load(path: defaultPath)

    /// Reads and parses the list at `path`; a file that cannot be read, or holds no rules, is
    /// `Unavailable` with the reason and the fix.
    public static func load(path: String) -> Result<PublicSuffixList, PublicSuffixList.Unavailable> {
        let fix = "install the publicsuffix package (apt-get install publicsuffix)"
        let reason: String
        switch FileStatus.read(path, limit: readLimit) {
        case .regular(_, let bytes):
            let list = PublicSuffixList(text: String(decoding: bytes, as: UTF8.self))
            guard list.count == 0 else { return .success(list) }
            reason = "holds no rules"
        case .tooLarge(let status): reason = "is \(status.size) bytes, not the list"
        case .notRegular: reason = "is not a regular file"
        case .linkRefused(let why): reason = why
        case .changing: reason = "kept changing while it was read"
        case .failed(let error, _): reason = "cannot be read: " + error.callAndErrno
        }
        return .failure(PublicSuffixList.Unavailable(reason: "the Public Suffix List \(path) \(reason); \(fix)"))
    }
}
