/// Cites docs/guide.md §1, docs/guide.md, "Query items", docs/guide.md §1, "The first part",
/// README, "Install", RFC 9110 §8.8.3, accept4(2), Apple's "Supporting associated domains",
/// https://llvm.org/docs/LibFuzzer.html and TLS suites such as ECDHE-ECDSA-AES128-GCM-SHA256.
let pattern = "[A-Z0-9]"
