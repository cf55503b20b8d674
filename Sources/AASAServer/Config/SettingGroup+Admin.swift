/// The admin listener's settings (docs/admin.md, "Admin listener"; docs/security.md, "The
/// admin listener").
extension SettingGroup {
    static let adminSettings: [Setting] = [
        Setting(
            "admin", \.admin, .listener, valueName: "addr:port|off", example: "127.0.0.1:19090",
            help:
                "Admin listener (health, metrics, status page), ADDR:PORT or off; loopback only unless --admin-public",
            refuses: { settings in
                guard let admin = settings.admin, !admin.isLoopback, !settings.adminPublic else { return nil }
                return "the admin listener \(admin) is not a loopback address; it shows every site and metric, so "
                    + "pass --admin-public (with --admin-token-file) to really expose it"
            }),
        Setting(
            "adminPublic", \.adminPublic, .presence("adminPublic must be true or false"), valueName: "on|off",
            example: "on", help: "Allow the admin listener on a non-loopback address; needs --admin-token-file",
            // A public admin listener answers only requests with the token.
            refuses: {
                $0.adminPublic && $0.adminTokenFile == nil
                    ? "--admin-public needs --admin-token-file FILE (adminTokenFile, AASA_ADMIN_TOKEN_FILE): "
                        + "a public admin listener answers only requests with Authorization: Bearer TOKEN" : nil
            }),
        Setting(
            "adminHosts", \.adminHosts, .list(ServerConfiguration.hostNames, show: { $0 }), flag: "admin-host",
            valueName: "name", example: "admin.example,ops.example",
            help: "A host name the admin listener answers besides IP addresses and localhost (repeatable)"),
        Setting(
            "adminTokenFile", \.adminTokenFile, .file, valueName: "file", example: "/run/secrets/admin-token",
            help: "A file with the bearer token every admin path but /healthz and /readyz then needs"),
        Setting(
            "metricsPerSite", \.metricsPerSite, .onOff("metrics per site must be on or off"), valueName: "on|off",
            example: "on", help: "Per-site series on /metrics, on or off (capped at the 1,000 busiest sites)"),
    ]
}
