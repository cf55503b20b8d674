extension EventLoop {
    /// Whether this loop may accept another connection without taking the descriptors kept
    /// for reloads and the admin listener (`DescriptorBudget`): one relaxed atomic load.
    var hasDescriptorRoom: Bool {
        guard let budget = settings.descriptors else { return true }
        return openConnections < budget.ceiling(settings.descriptorRole)
    }
}
