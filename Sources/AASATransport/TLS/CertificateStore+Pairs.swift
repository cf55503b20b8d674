import AASASystem
import Foundation
@preconcurrency import Glibc

extension CertificateStore {
    /// A certificate chain and its key, as found on disk.
    package struct Files: Sendable, Hashable {
        package let folder: String
        package let chain: String
        package let key: String

        package init(folder: String, chain: String, key: String) {
            self.folder = folder
            self.chain = chain
            self.key = key
        }
    }

    /// The names a pair may have: certbot's (`fullchain.pem` or `cert.pem` with
    /// `privkey.pem`) and a Kubernetes TLS Secret's (`tls.crt` with `tls.key`, what
    /// cert-manager writes).
    package static let layouts: [(chains: [String], key: String)] = [
        (["fullchain.pem", "cert.pem"], "privkey.pem"), (["tls.crt"], "tls.key"),
    ]

    /// The files of a pair (and certbot's `chain.pem`): a link by one of these names is a file,
    /// never a folder to look into, and costs no stat(2).
    package static let pairFileNames: Set<String> = Set(layouts.flatMap { $0.chains + [$0.key] } + ["chain.pem"])

    /// `directory` as the pairs below it name their folders: absolute and standardized.
    package static func standardized(_ directory: String) -> String {
        (URL(fileURLWithPath: directory).path as NSString).standardizingPath
    }

    /// Every pair in `directory` and the folders below it, in folder order. Hidden entries are
    /// skipped: a Secret mounted as a folder holds its files through `..data`, a link to a
    /// hidden timestamped folder, which would otherwise load as a second copy of each
    /// certificate. A link to a folder counts and is not walked into. A folder that cannot be
    /// listed is an error, never an empty one; a missing `directory` has no pairs. A pair is
    /// found by its files' names in the folder's listing (one listing per folder, the entry
    /// types it gives: no stat(2) per entry); whether its files can be read is the index's
    /// question. A pair reached twice (through links) is dropped by the index, by inode.
    package static func pairs(below directory: String) throws(SystemError) -> [Files] {
        var pairs: [Files] = []
        var pending = [standardized(directory)]
        var linked: [String] = []
        func add(_ folder: String, _ names: Set<String>) {
            for layout in layouts where names.contains(layout.key) {
                guard let chain = layout.chains.first(where: names.contains) else { continue }
                pairs.append(Files(folder: folder, chain: folder + "/" + chain, key: folder + "/" + layout.key))
            }
        }
        func listing(_ folder: String) throws(SystemError) -> [FolderEntry]? {
            do throws(SystemError) {
                return try Posix.entries(atPath: folder)
            } catch let error where error.errno == ENOENT || error.errno == ENOTDIR {
                return nil  // gone since it was listed (or never there): nothing below it
            }
        }
        while let folder = pending.popLast() {
            guard let entries = try listing(folder) else { continue }
            var names = Set<String>()
            for entry in entries where !entry.name.hasPrefix(".") {
                names.insert(entry.name)
                let path = folder + "/" + entry.name
                var type = entry.type
                if type == UInt8(DT_UNKNOWN) {
                    guard let status = FileStatus(path, followingLinks: false) else { continue }
                    type = status.kind == .directory ? UInt8(DT_DIR) : status.kind == .symbolicLink ? UInt8(DT_LNK) : 0
                }
                if type == UInt8(DT_DIR) {
                    pending.append(path)
                } else if type == UInt8(DT_LNK), !pairFileNames.contains(entry.name),
                    FileStatus(path)?.kind == .directory
                {
                    // A link to a folder (certs/example.com -> /etc/letsencrypt/live/example.com) counts too.
                    linked.append(path)
                }
            }
            add(folder, names)
        }
        for folder in linked {
            guard let entries = try listing(folder) else { continue }
            add(folder, Set(entries.lazy.map(\.name).filter { !$0.hasPrefix(".") }))
        }
        return pairs.sorted { $0.folder < $1.folder }
    }
}
