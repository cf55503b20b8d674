import AASASites
import AASASystem
import AASATransport
@preconcurrency import Glibc

/// The first load's watches (`FileWatcher.Setup.roots`): each folder is watched by the load's
/// own threads just before it is listed, so a change made while it loads is still reported,
/// and the watches cost neither a listing of their own nor a thread of their own before the
/// load. At 100,000 sites with a certificate each, setting them up first on one thread took
/// 2 s of a 6.5 s start (docs/development.md, "Many certificates").
extension FileWatcher {
    /// The folders the first load's watches failed for, and the last reason.
    struct FirstLoadFailures: Sendable {
        var sites: Set<String> = []
        var certificates: Set<String> = []
        var siteReason: SystemError?
        var certificateReason: SystemError?
    }

    /// Watches the site folder `entry` of the sites folder (its files at `folder`), before the
    /// load lists it.
    func watchSite(_ entry: String, folder: String) {
        guard fd >= 0, let error = watch(folder, as: .site(entry), mask: mask) else { return }
        firstLoadFailures.withLock { failures in
            failures.sites.insert(entry)
            failures.siteReason = error
        }
    }

    /// Watches the site's `well-known/` folder (served at /.well-known/NAME), which the load's
    /// listing of `folder` found, before the load reads it.
    func watchWellKnown(_ entry: String, folder: String) {
        guard fd >= 0 else { return }
        _ = watch(Self.wellKnown(folder), as: .site(entry), mask: wellKnownMask)
    }

    /// Watches a folder of the certificates (`path`, `name` below `--certs`, "" for the folder
    /// itself) before the index lists it. A Secret's `..data` stands for the folder holding it
    /// (`certificateTarget`); the store's own folders under `acme/` change with every challenge
    /// and hold no certificate, so they are not watched.
    func watchCertificateFolder(_ path: String, name: String) {
        guard fd >= 0, !Self.isStoreOnly(name),
            let error = watch(path, as: .certificates(Self.certificateTarget(name)), mask: mask)
        else { return }
        firstLoadFailures.withLock { failures in
            failures.certificates.insert(name)
            failures.certificateReason = error
        }
    }

    /// Adds a watch of `path` standing for `target`, from a load's thread; why not, when it failed.
    private func watch(_ path: String, as target: Target, mask: UInt32) -> SystemError? {
        do throws(SystemError) {
            let wd = try Posix.addWatch(fd, path, mask: mask)
            targets.withLock { $0[wd] = target }
            return nil
        } catch {
            return error
        }
    }

    /// After the first load: the folders it could not watch, counted and logged once, as
    /// `watchEverything` reports them.
    func firstLoadWatched() {
        let failures = firstLoadFailures.withLock { failures in
            defer { failures = FirstLoadFailures() }
            return failures
        }
        unwatched.setSites(failures.sites)
        unwatched.certificates(unwatched: failures.certificates, seen: [], all: true)
        if let reason = failures.siteReason, !failures.sites.isEmpty {
            let count = failures.sites.count
            logger.warning(
                "\(count) site folders are not watched (\(reason.call): \(reason.reason)); \(Self.siteAdvice)")
        }
        if let reason = failures.certificateReason, !failures.certificates.isEmpty {
            let count = failures.certificates.count
            let why = "\(reason.call): \(reason.reason)"
            logger.warning("\(count) certificate folders are not watched (\(why)); \(Self.certificateAdvice)")
        }
    }
}
