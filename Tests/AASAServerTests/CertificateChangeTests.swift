import Testing

@testable import AASAServer

/// Which certificate folders a reload looks at again: the one inotify names, merged over a
/// burst of events, or all of them.
@Suite("certificate folders a change names")
struct CertificateChangeTests {
    @Test(
        "an event in a watched folder names the folder to read again",
        arguments: [
            ("", "shop.example.com", "shop.example.com"),  // a folder added or removed in --certs
            ("shop.example.com", "fullchain.pem", "shop.example.com"),  // a pair's file replaced
            ("shop.example.com", "privkey.pem", "shop.example.com"),
            ("shop.example.com", "..data", "shop.example.com"),  // a Secret's swap
            ("acme", "pr-7.example.com", "acme/pr-7.example.com"),  // a folder below a folder
            ("acme/pr-7.example.com", "tls.crt", "acme/pr-7.example.com"),
        ])
    func folderOfAnEvent(_ folder: String, _ entry: String, _ expected: String) {
        #expect(FileWatcher.certificateFolder(folder, entry: entry) == expected)
    }

    @Test("merged changes: the union of the folders, all of them when one side says all, none when neither")
    func merged() {
        let one = ChangeSet(sites: [], certificates: true, certificateFolders: ["a"])
        let two = ChangeSet(sites: [], certificates: true, certificateFolders: ["b"])
        let sitesOnly = ChangeSet(sites: ["x"], certificates: false)
        #expect(one.merged(with: two).certificateFolders == ["a", "b"])
        #expect(one.merged(with: sitesOnly).certificateFolders == ["a"])
        #expect(sitesOnly.merged(with: one).certificates)
        #expect(one.merged(with: .everything).certificateFolders == nil)
        #expect(sitesOnly.merged(with: sitesOnly).certificateFolders == nil)
        #expect(!sitesOnly.merged(with: sitesOnly).certificates)
    }
}
