/// The names of IANA's "Well-Known URIs" registry (RFC 8615 §3.1,
/// https://www.iana.org/assignments/well-known-uris/), permanent and provisional, as listed
/// there in 2025. Only for a note: a name missing here is served all the same, and a name the
/// registry gained since is one line to add.
public enum WellKnownNames {
    public static let registered: Set<String> = [
        "acme-challenge", "amphtml", "api-catalog", "appspecific", "ashrae", "assetlinks.json", "brski",
        "caldav", "carddav", "change-password", "cmp", "coap", "core", "csaf", "csaf-aggregator", "csvm",
        "did-configuration.json", "did.json", "dnt", "dnt-policy.txt", "dots", "ecips", "edhoc",
        "enterprise-network-security", "enterprise-transport-security", "est", "genid", "gnap-as-rs",
        "gpc.json", "gs1resolver", "hoba", "host-meta", "host-meta.json", "hosting-provider",
        "http-opportunistic", "idp-proxy", "jmap", "keybase.txt", "knx", "lnurlp", "looking-glass", "masque",
        "matrix", "mercure", "mta-sts.txt", "mud", "nfv-oauth-server-configuration", "ni", "nodeinfo",
        "nostr.json", "oauth-authorization-server", "oauth-protected-resource", "ohttp-gateway",
        "openid-configuration", "openid-credential-issuer", "openid-federation", "openorg", "oslc",
        "pki-validation", "posh", "privacy-sandbox-attestations.json", "private-token-issuer-directory",
        "probing.txt", "pvd", "rd", "related-website-set.json", "reload-config", "repute-template",
        "resourcesync", "sbom", "security.txt", "ssf-configuration", "sshfp", "stun-key", "tdmrep.json",
        "terraform.json", "thread", "time", "timezone", "tor-relay", "tpcd", "traffic-advice", "trust.txt",
        "uma2-configuration", "void", "webfinger", "webweaver.json", "wot", "xrp-ledger.toml",
        // The files this server has a kind for, registered or named by their owners' documentation.
        "apple-app-site-association", "apple-developer-merchantid-domain-association", "webauthn",
        "passkey-endpoints",
    ]
}
