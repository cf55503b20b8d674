/// The rule [A-ARCH-UL] and AND-CONF, A-ENT; (OBSERVED §7).
/// See ../shared/docs/aasa-spec.md and product.md, server-engineering-notes.md, aasa-spec.md.
/// docs/missing.md, docs/guide.md §4, docs/guide.md, "No such part", README, "Serve".
let x = 1
