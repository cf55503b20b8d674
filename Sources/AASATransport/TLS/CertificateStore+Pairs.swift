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

    /// Called with each folder of the certificates (its path, and its name below the
    /// certificates folder: "" for that folder itself) just before it is listed, and with a
    /// Secret's `..data` link: the file watcher's first watches (`FileWatcher.Setup.roots`).
    public typealias FolderWatch = @Sendable (_ path: String, _ name: String) -> Void

    /// Every pair in `directory` and the folders below it, in folder order. Hidden entries are
    /// skipped: a Secret mounted as a folder holds its files through `..data`, a link to a
    /// hidden timestamped folder, which would otherwise load as a second copy of each
    /// certificate. A link to a folder counts and is not walked into. A folder that cannot be
    /// listed is an error, never an empty one; a missing `directory` has no pairs. A pair is
    /// found by its files' names in the folder's listing (one listing per folder, the entry
    /// types it gives: no stat(2) per entry); whether its files can be read is the index's
    /// question. A pair reached twice (through links) is dropped by the index, by inode. The
    /// folders below `directory` are walked on every core, each from its own thread.
    package static func pairs(below directory: String, watch: FolderWatch? = nil) throws(SystemError) -> [Files] {
        let root = standardized(directory)
        watch?(root, "")
        guard let entries = try listing(root) else { return [] }
        var walk = Walk(root: root, watch: watch)
        let below = walk.visit(root, entries)
        let results = ConcurrentMap.map(below.count) { position in
            var own = Walk(root: root, watch: watch)
            return Result { () throws(SystemError) in
                try own.walk(below[position])
                return own.pairs
            }
        }
        for result in results { walk.pairs += try result.get() }
        return walk.pairs.sorted { $0.folder < $1.folder }
    }

    /// The entries of `folder`; nil when it is gone since it was listed (or never there).
    fileprivate static func listing(_ folder: String) throws(SystemError) -> [FolderEntry]? {
        do throws(SystemError) {
            return try Posix.entries(atPath: folder)
        } catch let error where error.errno == ENOENT || error.errno == ENOTDIR {
            return nil
        }
    }
}

/// One thread's part of `CertificateStore.pairs(below:)`: the pairs it found.
private struct Walk {
    let root: String
    let watch: CertificateStore.FolderWatch?
    var pairs: [CertificateStore.Files] = []

    init(root: String, watch: CertificateStore.FolderWatch?) {
        self.root = root
        self.watch = watch
    }

    /// `path` below the certificates folder, as the watcher names it.
    func name(_ path: String) -> String {
        // By bytes: a name that begins with a combining mark joins the `/` before it into one
        // Character, and counting Characters would cut one too many.
        let below = path.utf8.dropFirst(root.utf8.count + 1)
        return below.isEmpty ? "" : String(decoding: below, as: UTF8.self)
    }

    /// A folder to walk, or a link to a folder, listed but not walked into.
    enum Work {
        case folder(String)
        case link(String)
    }

    /// What `work` leads to: a folder and every folder below it, or a linked folder's pair.
    mutating func walk(_ work: Work) throws(SystemError) {
        var pending = [work]
        while let next = pending.popLast() {
            switch next {
            case .folder(let folder):
                watch?(folder, name(folder))
                guard let entries = try CertificateStore.listing(folder) else { continue }
                pending += visit(folder, entries)
            case .link(let link):
                // A link to a folder (certs/example.com -> /etc/letsencrypt/live/example.com) counts too.
                watch?(link, name(link))
                guard let entries = try CertificateStore.listing(link) else { continue }
                add(link, Set(entries.lazy.map(\.name).filter { !$0.hasPrefix(".") }))
            }
        }
    }

    /// The pairs of `folder` (listed as `entries`) added; returns its folders and links to
    /// folders, to walk.
    mutating func visit(_ folder: String, _ entries: [FolderEntry]) -> [Work] {
        var names = Set<String>()
        var work: [Work] = []
        for entry in entries {
            let path = folder + "/" + entry.name
            guard !entry.name.hasPrefix(".") else {
                // A Secret's `..data` is watched for the folder holding it (its files are links
                // through it), never indexed: the pair is found by the links' names.
                if entry.name == "..data", let watch, FileStatus(path)?.kind == .directory { watch(path, name(path)) }
                continue
            }
            names.insert(entry.name)
            var type = entry.type
            if type == UInt8(DT_UNKNOWN) {
                guard let status = FileStatus(path, followingLinks: false) else { continue }
                type = status.kind == .directory ? UInt8(DT_DIR) : status.kind == .symbolicLink ? UInt8(DT_LNK) : 0
            }
            if type == UInt8(DT_DIR) {
                work.append(.folder(path))
            } else if type == UInt8(DT_LNK), !CertificateStore.pairFileNames.contains(entry.name),
                FileStatus(path)?.kind == .directory
            {
                work.append(.link(path))
            }
        }
        add(folder, names)
        return work
    }

    mutating func add(_ folder: String, _ names: Set<String>) {
        for layout in CertificateStore.layouts where names.contains(layout.key) {
            guard let chain = layout.chains.first(where: names.contains) else { continue }
            pairs.append(
                CertificateStore.Files(folder: folder, chain: folder + "/" + chain, key: folder + "/" + layout.key))
        }
    }
}
