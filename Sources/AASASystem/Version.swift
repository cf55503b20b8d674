/// The release this build is, for `--version`, the probe's User-Agent and the status page.
public enum Version {
    public static let current = "0.3.0"
}
