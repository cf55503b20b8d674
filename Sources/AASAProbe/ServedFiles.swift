/// What a probe read of a domain's files, each as one platform would read it, for the answer
/// about a URL (`Prober+URL`): the origin's two files, Apple's CDN copy and Google's view.
struct ServedFiles {
    /// A file's JSON, or why there is none to decide by.
    enum Copy {
        case json([UInt8])
        case missing(String)
        /// The copy could not be had (Google could not be asked): nothing is known of it.
        case unknown(String)
    }

    var apple: Copy
    var android: Copy
    /// nil: Apple's CDN was not asked (no `--cdn`).
    var cdn: Copy?
    /// nil: Google was not asked (no `--google`).
    var google: Copy?
}
