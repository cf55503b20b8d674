import AASASystem
import AASATransport
import Foundation
@preconcurrency import Glibc
import Logging

/// Renewal information (RFC 9773, docs/acme.md "Renewal information"): each certificate ACME
/// stored is asked about at the issuer that issued it, at start-up or issuance and again at
/// the CA's Retry-After (six hours without one, clamped to a minute to a day); it is renewed
/// at a random moment inside a suggested window that lies ahead, at once when the window has
/// begun or passed (a CA moves it into the past to ask for early renewal). Without
/// an answer the third rule holds: renew when a third of the lifetime remains.
extension ACMEManager {
    /// Records the certificate a plan holds; a different one than before starts over: its
    /// window is unknown, and a certificate ACME stored is asked about now.
    /// `managedPrefix` is `managedFolderPrefix`, found once per update rather than per plan.
    func hold(_ job: inout Job, _ certificate: CertificateStore.Certificate, now: Int, managedPrefix prefix: String) {
        let held = HeldCertificate(
            certID: RenewalInfo.certID(
                authorityKeyID: certificate.authorityKeyID, serialNumber: certificate.serialNumber),
            folder: certificate.folder, notBefore: certificate.notBefore, notAfter: certificate.notAfter,
            managed: (certificate.folder + "/").hasPrefix(prefix))
        guard job.held != held else { return }
        job.held = held
        job.window = nil
        job.renewAt = nil
        job.windowIssuer = nil
        job.deferred = false
        if !held.managed { job.issuedBy = nil }
        job.checkAt = held.managed && held.certID != nil ? now : nil
    }

    /// The folder ACME stores certificates in, standardized as certificate folders are, with
    /// a slash: a certificate below it is one ACME stored (`HeldCertificate.managed`).
    var managedFolderPrefix: String { URL(fileURLWithPath: storage.folder).standardizedFileURL.path + "/" }

    /// The moment to renew when the CA asks for `asked`: not before the renewal floor has
    /// passed since the held certificate's notBefore or this process's last order for the plan,
    /// whichever is later (docs/acme.md, "Renewal floor"); but the floor never holds a
    /// certificate past the third rule, so one that is expired or nearly so is still renewed.
    static func floored(_ asked: Int, _ held: HeldCertificate, orderedAt: Int?) -> Int {
        let floorEnd = later(max(held.notBefore, orderedAt ?? .min), ACMESettings.renewalFloor)
        return max(asked, min(floorEnd, held.thirdLeft))
    }

    /// Asks the issuer of `primary`'s certificate for its renewal window, and schedules by it.
    func check(_ primary: String, _ clients: [ACMEClient]) {
        guard let job = books.withLock({ $0.jobs[primary] }), let held = job.held, let certID = held.certID else {
            books.withLock {
                $0.jobs[primary]?.checking = false
                $0.jobs[primary]?.checkAt = nil
            }
            return
        }
        // The issuer recorded beside the certificate; one stored before issuers were
        // recorded is taken as the first issuer's. An issuer no longer configured is not asked.
        let directory = storage.issuerDirectory(ofFolder: held.folder)
        let index = directory.map { recorded in issuers.firstIndex { $0.directory == recorded } } ?? 0
        let now = Int(time(nil))
        guard let index else {
            finish(primary, held, index: nil, window: nil, nextCheck: nil, now: now)
            return
        }
        do {
            guard try clients[index].renewalInfoEndpoint() != nil else {
                // This CA offers no renewal information: the third rule, and no more checks.
                finish(primary, held, index: index, window: nil, nextCheck: nil, now: now)
                return
            }
            let (window, retryAfter) = try clients[index].renewalInfo(certID)
            let interval = min(
                max(retryAfter ?? RenewalInfo.defaultCheckInterval, RenewalInfo.checkIntervals.lowerBound),
                RenewalInfo.checkIntervals.upperBound)
            finish(primary, held, index: index, window: window, nextCheck: Self.later(now, interval), now: now)
        } catch {
            logger.warning(
                "acme: renewal information not available",
                metadata: [
                    "names": "\(job.plan.names.joined(separator: ","))", "issuer": "\(issuers[index].label)",
                    "detail": "\(error)",
                ])
            finish(
                primary, held, index: index, window: nil,
                nextCheck: Self.later(now, RenewalInfo.failedCheckInterval), now: now)
        }
    }

    /// Books a check's outcome: the moment chosen in the window (kept while the window is
    /// the same, so repeated checks do not drift it), or the third rule without one.
    private func finish(
        _ primary: String, _ held: HeldCertificate, index: Int?, window: RenewalInfo?, nextCheck: Int?, now: Int
    ) {
        let logged = books.withLock { books -> (Job, Int, Int?)? in
            guard var job = books.jobs[primary] else { return nil }
            job.checking = false
            // A new certificate arrived while this one was asked about: its own check follows.
            guard job.held == held else {
                books.jobs[primary] = job
                return nil
            }
            job.checkAt = nextCheck
            if let index { job.issuedBy = issuers[index].label }
            var asked: Int?
            if let window {
                if window.start <= now {
                    // The window has begun or passed: renew at once (the issue's rule; a random
                    // moment in a begun window could wait out most of it).
                    asked = now
                } else if job.window != window || job.renewAt == nil {
                    var generator = SystemRandomNumberGenerator()
                    asked = window.randomMoment(using: &generator)
                }
                if let moment = asked {
                    // Counted and logged once per certificate, not at every check.
                    let before = job.deferred
                    job.renewAt = Self.floored(moment, held, orderedAt: job.orderedAt)
                    job.deferred = job.renewAt != moment
                    if job.deferred && !before { books.results["renewal_deferred", default: 0] += 1 }
                    if !job.deferred || before { asked = nil }
                }
                job.window = window
                job.windowIssuer = index
            }
            let renewAt = job.renewAt ?? held.thirdLeft
            if job.state == .valid {
                // At once when the window has begun or passed (RFC 9773 §4.2).
                job.dueAt = max(renewAt, now)
                if renewAt <= now {
                    job.state = .scheduled
                    books.lookAgain = true
                }
            }
            books.jobs[primary] = job
            // `asked` is left only when this check put the renewal off for the first time.
            return window == nil ? nil : (job, renewAt, asked)
        }
        wake.wake()
        guard let (job, renewAt, asked) = logged, let window else { return }
        if let asked {
            logger.warning(
                "acme: renewal deferred",
                metadata: [
                    "names": "\(job.plan.names.joined(separator: ","))",
                    "asked": asked <= now ? "now" : "\(HTTPDate.format(asked))", "until": "\(HTTPDate.format(renewAt))",
                    "reason": "one certificate per name in \(ACMESettings.renewalFloor / 3600) h (renewal floor)",
                ])
        }
        logger.info(
            "acme: renewal window",
            metadata: [
                "names": "\(job.plan.names.joined(separator: ","))", "start": "\(HTTPDate.format(window.start))",
                "end": "\(HTTPDate.format(window.end))",
                "renew": renewAt <= now ? "now" : "\(HTTPDate.format(renewAt))",
                "next_check": "\(nextCheck.map { HTTPDate.format($0) } ?? "-")",
            ])
    }
}
