/// Grouped and aggregate dictionary fetches, answered by the store that holds the entities.
extension StoreCoordinator {
    /// The result dictionaries of `query` from the one store holding its entities, in order;
    /// `nil` when no single store holds them or the store cannot answer it (the caller then
    /// evaluates it in memory).
    func aggregate(_ query: StoreAggregateQuery, in generation: StoreGeneration?) throws
        -> [[String: Value]]?
    {
        try withStores(in: generation) { stores in
            try Self.onlyStore(for: query.rows.entityIndexes, in: stores, schema: schema)?
                .aggregate(query)
        }
    }
}
