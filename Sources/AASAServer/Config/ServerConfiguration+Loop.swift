import AASALoop

extension ServerConfiguration {
    /// What every event loop takes from these settings, in the loop's units; each loop's share
    /// of the caps and the descriptor budget are the server's to add.
    var loopSettings: LoopSettings {
        var settings = LoopSettings(timeouts: timeouts, limits: limits, logFormat: logFormat, accessLog: accessLog)
        settings.perSiteMetrics = metricsPerSite
        return settings
    }
}
