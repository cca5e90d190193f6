/// A fetch a store may answer itself (the SQLite store compiles it to SQL).
struct StoreQuery: Sendable, Hashable {
    /// What the query returns.
    enum Result: Sendable, Hashable {
        /// Whole rows (for objects).
        case rows
        /// Rows with only the ID filled in (faults, object IDs).
        case ids
    }

    /// The entity fetched.
    var entityIndex: Int
    /// The entities whose rows count: the entity, and its subentities when included.
    var entityIndexes: Set<Int>
    var predicate: Predicate?
    var sortDescriptors: [SortDescriptor]
    var offset: Int
    var limit: Int
    var result: Result
    /// Whether rows without sort descriptors must come in key order (`Z_PK`) even with no
    /// offset and no limit: the caller pages or limits them itself. Otherwise such a fetch's
    /// order is unspecified, as in Core Data, and a store may leave it unsorted.
    var needsKeyOrder = false
}
