import AASALoop

/// One response of the admin listener, before the loop frames it.
struct AdminResponse {
    var status: HTTPStatus
    var contentType = "text/plain; charset=utf-8"
    var body: [UInt8]
    /// A 401 that names the scheme it wants (`WWW-Authenticate: Bearer`, RFC 6750 §3).
    var asksForToken = false

    init(status: HTTPStatus, text: String) {
        self.status = status
        body = Array(text.utf8)
    }

    init(status: HTTPStatus, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}
