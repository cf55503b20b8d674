import AssociationKit

extension FallbackDecision.Kind {
    /// The counter slot of the kind in `LoopStatistics.Totals.fallback`.
    package var slot: Int {
        switch self {
        case .notFound: 0
        case .preview: 1
        case .page: 2
        case .redirect: 3
        }
    }
}
