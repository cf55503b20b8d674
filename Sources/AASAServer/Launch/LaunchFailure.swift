/// Why `serve` does not start, said once by `ServerLaunch.run` with the exit status it gives.
enum LaunchFailure: Error {
    /// The settings, or a file they name, cannot be used; found before anything is read, it is
    /// one line on standard error and exit status 2.
    case settings(String)
    /// Said through the start-up report (text, or a JSON event) as the last word.
    case notStarting(String, status: Int32)
}
