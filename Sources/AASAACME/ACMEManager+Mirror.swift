import AASAStore
import AASASystem
import Foundation
@preconcurrency import Glibc
import Logging

/// A store that is not the certificates folder's `acme/` (PostgreSQL, or a folder elsewhere:
/// docs/acme.md, "Several replicas") holds the replicas' certificates and account keys; each
/// replica keeps a copy in its own `acme/`, which the certificate loader reads as before:
/// copied from the store at start and whenever the store says a certificate changed
/// (PostgreSQL's `LISTEN`/`NOTIFY`; the file watcher then reloads), written to the store with
/// every certificate this replica issues, before the name's lock is released.
extension ACMEManager {
    /// Whether the store is somewhere else than the certificates folder's `acme/`.
    var mirrors: Bool { ObjectIdentifier(store) != ObjectIdentifier(storage.files) }

    /// The key of `relative` (a path under `acme/`) in the store.
    static func storeKey(_ relative: String) -> StoreKey? { StoreKey(relative) }

    /// Before the accounts are read: each issuer's account key comes from the store when it
    /// holds one; one made here is written there, under the lock `accounts`, so replicas
    /// starting together end up with one account per CA.
    func mirrorAccounts() throws(ACMEProblem) {
        guard mirrors else { return }
        var lock: StoreLock?
        for _ in 0..<50 {
            do { lock = try store.tryLock("accounts") } catch {
                throw ACMEProblem.transport("cannot reach the store for the account keys: \(error)")
            }
            if lock != nil { break }
            Posix.pause(microseconds: 100_000)
        }
        defer { lock.map(store.unlock) }
        for (index, issuer) in issuers.enumerated() {
            let path = storage.accountKeyPath(directory: issuer.directory)
            let relative = String(path.dropFirst(storage.folder.count + 1))
            guard let key = Self.storeKey(relative) else { continue }
            do {
                if let stored = try store.load(key) {
                    try storage.makeFolder()
                    try FileManager.default.createDirectory(
                        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try ACMEStorage.writeAtomically(stored, to: path, mode: 0o600)
                } else {
                    let made = try storage.accountKey(directory: issuer.directory, adoptLegacy: index == 0)
                    try store.store(key, made.pem())
                }
            } catch {
                throw ACMEProblem.transport("cannot share the account key \(relative) through the store: \(error)")
            }
        }
    }

    /// Copies every certificate the store holds into `acme/` where the copy differs.
    func mirrorCertificates() {
        guard mirrors else { return }
        let entries: [(StoreKey, [UInt8])]
        do { entries = try store.loadAll(prefix: "") } catch {
            logger.warning("acme: cannot read the certificates in the store now: \(error)")
            return
        }
        var byName: [String: [String: [UInt8]]] = [:]
        for (key, value) in entries where key.components.count == 2 {
            byName[String(key.components[0]), default: [:]][String(key.components[1])] = value
        }
        for (name, files) in byName { copy(name, files) }
    }

    /// One certificate changed in the store (its key `NAME/fullchain.pem`): its copy is
    /// brought up to date.
    func mirrorChange(_ key: StoreKey) {
        // The three files are written in one transaction: the chain's notice stands for all.
        guard mirrors, key.components.count == 2, key.components[1] == "fullchain.pem" else { return }
        let name = String(key.components[0])
        var files: [String: [UInt8]] = [:]
        for file in ["fullchain.pem", "privkey.pem", "issuer"] {
            guard let key = StoreKey(name + "/" + file) else { return }
            do { files[file] = try store.load(key) } catch {
                logger.warning("acme: cannot read \(name)'s certificate from the store: \(error)")
                return
            }
        }
        copy(name, files)
    }

    /// Writes a certificate this replica issued to the store, all files in one step.
    func share(_ issued: CertificateIssuer.Issued, name: String, directory: String) {
        guard mirrors, let key = StoreKey(name + "/privkey.pem"), let chain = StoreKey(name + "/fullchain.pem"),
            let issuer = StoreKey(name + "/issuer")
        else { return }
        do {
            try store.storeAll([
                (key, issued.keyPEM), (chain, issued.chainPEM), (issuer, Array((directory + "\n").utf8)),
            ])
        } catch {
            logger.error(
                "acme: the certificate is stored here but not in the store; other replicas may order it again",
                metadata: ["name": "\(name)", "detail": "\(error)"])
        }
    }

    private func copy(_ name: String, _ files: [String: [UInt8]]) {
        guard !ACMEStorage.storeOnlyFolders.contains(name), name != "accounts", let chain = files["fullchain.pem"],
            let key = files["privkey.pem"], StoredLeaf(pem: chain) != nil
        else { return }
        let local = (storage.certificateFolder(name) as NSString).appendingPathComponent("fullchain.pem")
        if FileManager.default.contents(atPath: local).map({ Array($0) == chain }) == true { return }
        let directory =
            files["issuer"].map { String(decoding: $0, as: UTF8.self) }?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        do {
            try storage.store(CertificateIssuer.Issued(keyPEM: key, chainPEM: chain), name: name, directory: directory)
            logger.info("acme: certificate copied from the store", metadata: ["name": "\(name)"])
        } catch {
            logger.warning("acme: cannot copy \(name)'s certificate from the store: \(error)")
        }
    }
}
