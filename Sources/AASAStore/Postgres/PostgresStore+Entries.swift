extension PostgresStore {
    /// Binary results: the value's bytes as they are.
    public func load(_ key: StoreKey) throws(StoreError) -> [UInt8]? {
        let found = try run(.load) { connection throws(StoreError) in
            let result = try connection.execute(
                "SELECT value FROM aasa_store_entries WHERE key = $1", [Array(key.text.utf8)], binaryResults: true)
            return result.rowCount == 0 ? nil : result.bytes(0, 0)
        }
        guard let found else { return nil }
        return try opened(found, for: key)
    }

    public func store(_ key: StoreKey, _ value: [UInt8]) throws(StoreError) {
        try storeAll([(key, value)], operation: .store)
    }

    /// One INSERT of every row: one statement, one transaction, all or none.
    public func storeAll(_ entries: [(StoreKey, [UInt8])]) throws(StoreError) {
        try storeAll(entries, operation: .storeAll)
    }

    private func storeAll(_ entries: [(StoreKey, [UInt8])], operation: StoreOperation) throws(StoreError) {
        // One row per key (the last value), as one INSERT may not touch a row twice.
        var values: [StoreKey: [UInt8]] = [:]
        var order: [StoreKey] = []
        for (key, value) in entries {
            if values.updateValue(value, forKey: key) == nil { order.append(key) }
        }
        guard !order.isEmpty else { return }
        var parameters: [[UInt8]] = []
        var rows: [String] = []
        for key in order {
            guard let value = values[key] else { continue }
            parameters.append(Array(key.text.utf8))
            parameters.append(try sealed(value, for: key))
            rows.append("($\(parameters.count - 1)::text, $\(parameters.count)::bytea)")
        }
        let sql =
            "INSERT INTO aasa_store_entries (key, value) VALUES \(rows.joined(separator: ", ")) "
            + "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, modified = clock_timestamp()"
        try run(operation) { connection throws(StoreError) in
            _ = try connection.execute(sql, parameters)
        }
    }

    public func delete(_ key: StoreKey) throws(StoreError) {
        try run(.delete) { connection throws(StoreError) in
            _ = try connection.execute("DELETE FROM aasa_store_entries WHERE key = $1", [Array(key.text.utf8)])
        }
    }

    /// One query for every key under `prefix` and its value, sorted by key.
    public func loadAll(prefix: String) throws(StoreError) -> [(StoreKey, [UInt8])] {
        let pattern = Self.likePattern(prefix)
        let rows = try run(.list) { connection throws(StoreError) in
            let result = try connection.execute(
                "SELECT key, value FROM aasa_store_entries WHERE key LIKE $1 ORDER BY key", [Array(pattern.utf8)],
                binaryResults: true)
            return (0..<result.rowCount).compactMap { row -> (String, [UInt8])? in
                guard let key = result.text(row, 0), let value = result.bytes(row, 1) else { return nil }
                return (key, value)
            }
        }
        var found: [(StoreKey, [UInt8])] = []
        found.reserveCapacity(rows.count)
        for (text, value) in rows {
            guard let key = StoreKey(text) else { continue }
            found.append((key, try opened(value, for: key)))
        }
        return found
    }

    /// A LIKE on the prefix, its `%`, `_` and `\` escaped: the key's index serves it (the
    /// column's collation is "C").
    public func list(prefix: String) throws(StoreError) -> [StoreKey] {
        let pattern = Self.likePattern(prefix)
        let texts = try run(.list) { connection throws(StoreError) in
            let result = try connection.execute(
                "SELECT key FROM aasa_store_entries WHERE key LIKE $1 ORDER BY key", [Array(pattern.utf8)])
            return (0..<result.rowCount).compactMap { result.text($0, 0) }
        }
        return texts.compactMap(StoreKey.init)
    }

    /// `prefix` as a LIKE pattern: its `%`, `_` and `\\` escaped, then `%`.
    static func likePattern(_ prefix: String) -> String {
        var pattern = ""
        for character in prefix {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }

    /// The size is the value's, without the seal of an encrypted key.
    public func stat(_ key: StoreKey) throws(StoreError) -> StoreEntryInfo? {
        try run(.stat) { connection throws(StoreError) in
            let result = try connection.execute(
                """
                SELECT octet_length(value), extract(epoch FROM modified)::float8,
                    substring(value FROM 1 FOR \(StoreCipher.magic.count)) = $2::bytea
                FROM aasa_store_entries WHERE key = $1
                """, [Array(key.text.utf8), StoreCipher.magic])
            guard result.rowCount > 0, let size = result.text(0, 0).flatMap({ Int($0) }),
                let modified = result.text(0, 1).flatMap({ Double($0) })
            else { return nil }
            let seal = StoreCipher.magic.count + StoreCipher.nonceLength + StoreCipher.tagLength
            return StoreEntryInfo(size: result.text(0, 2) == "t" ? max(0, size - seal) : size, modified: modified)
        }
    }

    /// A private key encrypted when there is a store key; everything else as it is.
    func sealed(_ value: [UInt8], for key: StoreKey) throws(StoreError) -> [UInt8] {
        guard key.isPrivate, let cipher else { return value }
        return try cipher.seal(value, for: key)
    }

    /// An encrypted value opened; one written before the store key was given is read as it
    /// is (and encrypted when next written).
    func opened(_ value: [UInt8], for key: StoreKey) throws(StoreError) -> [UInt8] {
        guard StoreCipher.isSealed(value) else { return value }
        guard let cipher else {
            health.recordError(.load)
            throw StoreError.refused("\(key) is encrypted; give the store's key (--store-key-file)")
        }
        do throws(StoreError) {
            return try cipher.open(value, for: key)
        } catch {
            health.recordError(.load)
            throw error
        }
    }
}
