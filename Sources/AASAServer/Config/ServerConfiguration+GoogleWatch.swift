extension ServerConfiguration {
    /// The Google watch's settings that name files: relative to a config file's folder, and
    /// null in one clears them.
    static let googleWatchFiles: [Setting] = [.googleWatchCa, .googleWatchKeyFile]

    /// `--google-watch*` (docs/usage.md, "Google's view").
    mutating func applyGoogleWatch(_ setting: Setting, _ value: String, source: String) throws(Problem) {
        switch setting {
        case .googleWatch:
            googleWatch.enabled = try Self.onOff(value, "\(source): the Google watch must be on or off")
        case .googleWatchUrl:
            guard value.hasPrefix("https://"), !value.contains("#") else {
                throw Problem(description: "\(source): the Google watch URL must be an https:// URL")
            }
            googleWatch.url = value
        case .googleWatchCa: googleWatch.caFile = value.isEmpty ? nil : value
        case .googleWatchKeyFile: googleWatch.keyFile = value.isEmpty ? nil : value
        case .googleWatchInterval:
            googleWatch.interval = try Self.integer(
                value, in: 1...604_800, "\(source): the Google watch interval must be 1 to 604800 seconds")
        case .googleWatchRate:
            googleWatch.ratePerMinute = try Self.integer(
                value, in: 1...6000, "\(source): the Google watch rate must be 1 to 6000 requests per minute")
        default: break
        }
    }
}
