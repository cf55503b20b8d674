/// What start-up does with invalid sites (docs/usage.md, "Serve"): `refuse` does not start while any
/// site is invalid, like `nginx -t`; `skip` refuses only those sites, reports them as a reload
/// reports the sites it refuses, and serves the rest.
public enum InvalidSites: String, Sendable, CaseIterable {
    case refuse, skip
}
