import AASALoop

/// Publishes the current `ServingSnapshot` to the sites' loops (`ContentBox`).
public typealias SnapshotBox = ContentBox<ServingSnapshot>
