import CLibPQ

/// One PGresult, cleared when it goes. Immutable once made and read only by the thread that
/// ran its statement (it crosses `PostgresConnection`'s lock only as it is made), hence
/// unchecked.
final class PostgresResult: @unchecked Sendable {
    private let result: OpaquePointer?

    init(_ result: OpaquePointer?) {
        self.result = result
    }

    deinit {
        PQclear(result)
    }

    var status: ExecStatusType { result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR }

    var rowCount: Int { result.map { Int(PQntuples($0)) } ?? 0 }

    var errorMessage: String {
        guard let result, let text = PQresultErrorMessage(result) else { return "" }
        return PostgresConnection.oneLine(String(cString: text))
    }

    /// The five-character SQLSTATE of a failure ("" when there is none).
    var sqlState: String {
        guard let result, let text = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) else { return "" }
        return String(cString: text)
    }

    func isNull(_ row: Int, _ column: Int) -> Bool {
        guard let result else { return true }
        return PQgetisnull(result, Int32(row), Int32(column)) == 1
    }

    /// A field's bytes (its text, or its binary form for a binary result); nil for NULL.
    func bytes(_ row: Int, _ column: Int) -> [UInt8]? {
        guard let result, !isNull(row, column), let value = PQgetvalue(result, Int32(row), Int32(column)) else {
            return nil
        }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    func text(_ row: Int, _ column: Int) -> String? {
        bytes(row, column).map { String(decoding: $0, as: UTF8.self) }
    }
}
