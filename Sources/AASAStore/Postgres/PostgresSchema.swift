/// The store's tables in PostgreSQL, created and migrated by the server at start and written by
/// nothing else (docs/acme.md, "Several replicas, one store"): `aasa_store_version` holds the
/// one version number; each migration runs once, in order, in the same transaction as the
/// number's change, under a transaction advisory lock so replicas starting together migrate
/// once.
enum PostgresSchema {
    /// The advisory lock key of migrations (any constant no lock name hashes to by chance).
    static let migrationLock: Int64 = 0x4141_5341_5354_4f52  // "AASASTOR"

    /// Migration N (1-based) brings the schema from version N-1 to N.
    static let migrations: [String] = [
        // 1: one row per key; keys compare bytewise (COLLATE "C"), so a prefix LIKE uses the
        // primary key's index; every write notifies the channel `aasa_store` with its key,
        // delivered at commit.
        """
        CREATE TABLE aasa_store_entries (
            key text COLLATE "C" PRIMARY KEY,
            value bytea NOT NULL,
            modified timestamptz NOT NULL DEFAULT clock_timestamp()
        );
        CREATE FUNCTION aasa_store_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('aasa_store', CASE WHEN TG_OP = 'DELETE' THEN OLD.key ELSE NEW.key END);
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER aasa_store_notify AFTER INSERT OR UPDATE OR DELETE ON aasa_store_entries
            FOR EACH ROW EXECUTE FUNCTION aasa_store_notify();
        """
    ]

    static var currentVersion: Int { migrations.count }

    /// Brings the schema to `currentVersion`; a schema newer than this server's is refused
    /// (an older server must not write what it does not know).
    static func migrate(_ connection: PostgresConnection) throws(StoreError) {
        try connection.executeScript("BEGIN")
        do throws(StoreError) {
            _ = try connection.execute("SELECT pg_advisory_xact_lock(\(migrationLock))")
            try connection.executeScript(
                """
                CREATE TABLE IF NOT EXISTS aasa_store_version (version integer NOT NULL);
                INSERT INTO aasa_store_version SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM aasa_store_version);
                """)
            let found = try connection.execute("SELECT max(version) FROM aasa_store_version")
            let version = found.text(0, 0).flatMap { Int($0) } ?? 0
            guard version <= currentVersion else {
                throw StoreError.refused(
                    "the store's schema is version \(version), newer than this server's \(currentVersion); "
                        + "upgrade the server")
            }
            for index in version..<currentVersion {
                try connection.executeScript(migrations[index])
                _ = try connection.execute("UPDATE aasa_store_version SET version = \(index + 1)")
            }
            try connection.executeScript("COMMIT")
        } catch {
            try? connection.executeScript("ROLLBACK")
            throw error
        }
    }
}
