/// A long-lived part of the running server: the event loops, the admin listener's loop, the
/// certificate loader, ACME's workers, the CDN and Google watches, the reloader, the file
/// watcher, the shared store. `ServerBuilder` lists them in the order they start (a part starts
/// after the parts it uses); `Server` starts them in that order and stops them in reverse, so
/// nothing is stopped while a part still running relies on it. Nothing here has a default: a
/// part says what its threads are, how they stop and what its failure does.
protocol ServerComponent: AnyObject {
    /// What the logs call it (its threads' names begin with it).
    var name: String { get }

    /// What the server does when the part fails or ends before it is asked to stop.
    var policy: FailurePolicy { get }

    /// Where the part says it failed or ended on its own; `Server` connects it to `policy`
    /// before `start`.
    var failures: FailureReport { get }

    /// Begins its work (threads of its own, workers); a throw stops start-up, and the parts
    /// started before it are stopped.
    func start() throws

    /// Asks it to stop, without waiting: every part is asked first, so the loops finish their
    /// responses in flight together.
    func stop()

    /// Returns once every thread the part started has returned (joined), after `stop`.
    func waitUntilStopped()
}
