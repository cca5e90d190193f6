extension PersistentStore {
    /// Stores that do not run SQL hold their rows in memory: the evaluator answers the whole
    /// fetch.
    func explain(_ query: StoreQuery) throws -> FetchExplanation {
        FetchExplanation(
            entityName: "", storeType: description.type,
            inMemory: [
                FetchExplanation.InMemoryPart(
                    part: "the whole fetch",
                    reason: "the \(description.type) store does not run SQL: it holds every row"
                        + " in memory, and the predicate and sort are evaluated there")
            ])
    }
}

extension StoreCoordinator {
    /// How the store holding `query`'s entities answers it (see ``FetchExplanation``): the
    /// coordinator asks the store, which knows whether and how it runs SQL.
    func explain(_ query: StoreQuery) throws -> FetchExplanation {
        let name = schema.entities[query.entityIndex].name
        var explanation = try withStoresLocked { stores in
            guard let store = Self.onlyStore(for: query.entityIndexes, in: stores, schema: schema)
            else {
                return FetchExplanation(
                    entityName: name, storeType: nil,
                    inMemory: [
                        FetchExplanation.InMemoryPart(
                            part: "the whole fetch",
                            reason: "the fetched entities are in more than one store: every row"
                                + " of each is read and the predicate and sort are evaluated in"
                                + " memory")
                    ])
            }
            return try store.explain(query)
        }
        explanation.entityName = name
        return explanation
    }
}
