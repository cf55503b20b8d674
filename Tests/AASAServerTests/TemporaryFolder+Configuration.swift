import TestSupport

@testable import AASAServer

extension TemporaryFolder {
    /// Settings that serve the folder's `sites/`.
    func configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.sites = path("sites")
        return configuration
    }
}
