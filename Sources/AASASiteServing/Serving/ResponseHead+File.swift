import AASALoop

extension ResponseHead {
    /// The head of a 200 for `variant`, piece by piece: the one layout that both the
    /// `ResponseCache` and `assemble` write.
    static func head200(
        _ variant: PreparedFile.Variant, _ connectionHeader: ConnectionHeader, dates: DateCache,
        _ put: (UnsafeRawBufferPointer) -> Void
    ) {
        start(ok, date: dates.httpDate, put)
        variant.headers200.withUnsafeBytes(put)
        end(connectionHeader, put)
    }
}
