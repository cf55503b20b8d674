import AssociationKit

extension FallbackDecision.Kind {
    /// How many kinds there are: the counters' slots (`SiteHandler.countedKinds`).
    package static let slots = 4

    /// The counter slot of the kind in `LoopStatistics.Totals.kinds` (`RequestOutcome.kind`).
    package var slot: Int {
        switch self {
        case .notFound: 0
        case .preview: 1
        case .page: 2
        case .redirect: 3
        }
    }
}
