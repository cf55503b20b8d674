/// What replicas share: ACME's accounts, certificates, pending challenges, locks and backoffs,
/// and the watches' leader and results (docs/acme.md, "Several replicas, one store"; Caddy's
/// `Storage` is the model). Two engines: `FolderStore` and `PostgresStore`.
///
/// Every call may block: callers are threads of their own (ACME's workers, a lookup thread),
/// never an event loop.
public protocol SharedStore: AnyObject, Sendable {
    /// Where the store is, without a secret: "folder /var/lib/aasa/certs/acme",
    /// "postgres db.internal:5432/aasa".
    var summary: String { get }
    /// Reachability and errors by operation.
    var health: StoreHealth { get }
    /// The value of `key`, nil when there is none.
    func load(_ key: StoreKey) throws(StoreError) -> [UInt8]?
    func store(_ key: StoreKey, _ value: [UInt8]) throws(StoreError)
    /// All or none (a certificate's `privkey.pem`, `fullchain.pem` and `issuer` together):
    /// the folder swaps a staging folder into place, PostgreSQL writes in one transaction.
    func storeAll(_ entries: [(StoreKey, [UInt8])]) throws(StoreError)
    /// Removes `key`; one that is not there is no error.
    func delete(_ key: StoreKey) throws(StoreError)
    /// Every key whose text starts with `prefix` ("" for all), sorted.
    func list(prefix: String) throws(StoreError) -> [StoreKey]
    func stat(_ key: StoreKey) throws(StoreError) -> StoreEntryInfo?
    /// Every key under `prefix` with its value, in one go (start-up reads every certificate:
    /// PostgreSQL answers in one query instead of one per key).
    func loadAll(prefix: String) throws(StoreError) -> [(StoreKey, [UInt8])]
    /// A lock across replicas, nil while another holder has it; released by `unlock`, when the
    /// lock object goes away, or when the holder dies (folder: flock(2) on `.lock-NAME`;
    /// PostgreSQL: a session advisory lock on a connection of its own). `name` is one key
    /// component.
    func tryLock(_ name: String) throws(StoreError) -> StoreLock?
    func unlock(_ lock: StoreLock)
    /// Whether `lock` still holds: not unlocked, and (PostgreSQL) its session alive, which a
    /// server restart or a terminated backend ends, freeing the name for others. A holder that
    /// acts for a long time (the watches' leader) asks before each round.
    func holds(_ lock: StoreLock) -> Bool
    /// `handler` is called, on a thread of the store's, with each key any replica writes or
    /// deletes, within about a second (PostgreSQL: LISTEN/NOTIFY). The folder engine never
    /// calls it: the file watcher sees its changes.
    func observeChanges(_ handler: @escaping @Sendable (StoreKey) -> Void)
    /// Stops the store's threads and closes its connections; held locks are released.
    func close()
}

extension SharedStore {
    /// `list`, then `load` of each (a key deleted in between is left out).
    public func loadAll(prefix: String) throws(StoreError) -> [(StoreKey, [UInt8])] {
        var found: [(StoreKey, [UInt8])] = []
        for key in try list(prefix: prefix) {
            if let value = try load(key) { found.append((key, value)) }
        }
        return found
    }
}
