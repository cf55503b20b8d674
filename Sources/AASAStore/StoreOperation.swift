/// What a store call does, the label of `aasa_store_errors_total{operation}`.
public enum StoreOperation: String, Sendable, CaseIterable {
    case load, store, storeAll, delete, list, stat, lock, connect, listen
}
