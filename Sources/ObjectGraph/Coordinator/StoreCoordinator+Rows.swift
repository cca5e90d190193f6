/// Reading the rows of many objects at once.
extension StoreCoordinator {
    /// The rows the stores have of `ids`, by ID: one read per store (a SQLite store reads each
    /// table's rows in one query per few hundred keys), not one per object. IDs no store has
    /// are left out.
    ///
    /// ```swift
    /// let rows = try coordinator.rows(for: conflicts.map(\.objectID), in: nil)
    /// ```
    func rows(for ids: [ObjectID], in generation: StoreGeneration?) throws
        -> [ObjectID: StoreRow]
    {
        guard !ids.isEmpty else { return [:] }
        return try withStores(in: generation) { stores in
            var byStore: [String: [ObjectID]] = [:]
            for id in ids { byStore[id.storeIdentifier, default: []].append(id) }
            var result: [ObjectID: StoreRow] = [:]
            result.reserveCapacity(ids.count)
            for (identifier, group) in byStore {
                guard let store = Self.store(identifiedBy: identifier, in: stores) else {
                    continue
                }
                for row in try store.rows(for: group) { result[row.id] = row }
            }
            return result
        }
    }
}
