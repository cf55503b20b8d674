/// The bytes that mark Apple's fetcher in a User-Agent (`--apple-fetcher-agent`), copied
/// once into memory of their own: searched per request without an array's reference count.
package final class FetcherMarker {
    let bytes: UnsafeMutableBufferPointer<UInt8>

    init(_ marker: [UInt8]) {
        bytes = .allocate(capacity: marker.count)
        _ = bytes.initialize(from: marker)
    }

    deinit {
        bytes.deallocate()
    }
}
