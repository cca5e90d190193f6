extension ManagedContext {
    /// How `request` is answered: the SQL a SQLite store runs for it, SQLite's query plan in
    /// readable form (which index it searches, which tables it scans, where it sorts), and
    /// which parts are evaluated in memory, and why — a predicate or sort the SQL compiler
    /// cannot translate (then every row of the entity is read and the evaluator filters it), a
    /// store that does not run SQL, or this context's unsaved changes. Nothing is fetched.
    ///
    /// ```swift
    /// let request = FetchRequest(entityName: "Person", predicate: try Predicate(format: "name == 'Ann'"))
    /// let explanation = try context.explain(request)
    /// explanation.queryPlan?.usesIndex("ZPERSON_ZNAME_INDEX")  // true when name is indexed
    /// print(explanation)
    /// ```
    ///
    /// - Throws: ``ObjectGraphError`` when the request names no known entity;
    ///   ``StoreError/sqlite(path:message:)`` when SQLite cannot plan the statement.
    public func explain<T: ManagedObject>(_ request: FetchRequest<T>) throws -> FetchExplanation {
        let entity = try fetchEntity(request)
        let query = storeQuery(request, entity: entity, result: .rows, limits: true)
        var explanation = try source.explain(query)
        if hasPendingChanges(in: query.entityIndexes, request) {
            explanation.inMemory.append(
                FetchExplanation.InMemoryPart(
                    part: "this context's unsaved changes",
                    reason: "objects inserted, changed or deleted here and not saved are not in"
                        + " the store: the context matches them against the predicate in memory"
                        + " and merges them into the answer"))
        }
        return explanation
    }
}
