/// A long-lived part of the running server: the event loops, the admin listener's loop,
/// ACME's workers, the CDN and Google watches, the reloader, the file watcher. `ServerBuilder` lists them
/// in the order they start (a part starts after the parts it uses); `Server` starts them in
/// that order and stops them in reverse, so nothing is stopped while a part still running
/// relies on it.
protocol ServerComponent: AnyObject {
    /// Begins its work (threads of its own, workers); a throw stops start-up, and the parts
    /// started before it are stopped.
    func start() throws

    /// Asks it to stop, without waiting: every part is asked first, so the loops finish their
    /// responses in flight together.
    func stop()

    /// Returns once it has stopped (after `stop`).
    func waitUntilStopped()

    /// Why it stopped on its own, when that must stop the server (an event loop's failure).
    var failure: String? { get }
}

extension ServerComponent {
    func waitUntilStopped() {}
    var failure: String? { nil }
}
