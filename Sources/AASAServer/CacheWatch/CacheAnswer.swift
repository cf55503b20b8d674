import AssociationKit

/// What one question to a platform's cache said, before it is compared with what was served.
enum CacheAnswer: Equatable {
    /// The cache's copy, by meaning (nil when it cannot be read as the file).
    case copy(MeaningFingerprint?)
    /// The platform could not fetch from the origin: its reason and details, verbatim.
    case failing(reason: String, details: String?)
    case error(String)
}
