/// What a context's reads see: every save (unpinned), or one generation of the stores.
enum QueryGenerationState {
    /// Reads see the stores as they are at each read.
    case unpinned
    /// Reads see the generation.
    case pinned(StoreGeneration)
    /// Pinned to the newest generation, taken at the next read (after a save or a merge
    /// moved the context on: the old generation is let go at once).
    case newest
}

/// Query generations (Core Data's `queryGenerationToken` and `setQueryGenerationFrom(_:)`):
/// a context pinned to a generation reads one consistent snapshot of its stores.
extension ManagedContext {
    /// The generation the context's reads are pinned to, or `nil` when they see every save
    /// (the default).
    ///
    /// ```swift
    /// try context.setQueryGenerationFrom(.current)
    /// let snapshot = context.queryGenerationToken   // pin another context with it
    /// ```
    ///
    /// Right after a save or a merge moved the context on, the newest generation is taken
    /// here (or at the next read); should that fail, ``QueryGenerationToken/current`` is
    /// returned and the next read throws the store's error.
    public var queryGenerationToken: QueryGenerationToken? {
        switch queryGenerationState {
        case .unpinned: return nil
        case .pinned(let generation): return QueryGenerationToken(generation)
        case .newest:
            return (try? readingGeneration()).map(QueryGenerationToken.init) ?? .current
        }
    }

    /// Pins the context's reads to a generation of its stores, or unpins them (`nil`).
    ///
    /// With ``QueryGenerationToken/current`` the context is pinned to the stores as they are
    /// now (at this call; Core Data takes it at the next read): its fetches, counts, faults,
    /// relationship faults and refreshes read that snapshot, while other contexts and
    /// coordinators save, until it is moved again. With another context's
    /// ``queryGenerationToken`` both read the same snapshot. The context moves to the newest
    /// generation by itself when it saves, merges another context's save
    /// (``mergeChanges(fromContextDidSave:)``) or is reset, as Core Data's pinned contexts do.
    ///
    /// Moving does not change the objects the context holds loaded (as in Core Data):
    /// ``refreshAllObjects()`` reads them again from the new generation. A save checks its
    /// changes against the stores as they are now, not the snapshot: what others saved since
    /// is a conflict for ``mergePolicy``.
    ///
    /// ```swift
    /// try context.setQueryGenerationFrom(.current)
    /// let before = try context.count(for: FetchRequest(entityName: "Person"))
    /// try importer.save()                      // another context
    /// try context.count(for: FetchRequest(entityName: "Person")) == before   // still
    /// try context.setQueryGenerationFrom(.current)   // now the import shows
    /// ```
    ///
    /// - Throws: ``StoreError/queryGenerationsNeedWAL(path:journalMode:)`` when a SQLite store
    ///   is not in WAL mode (the context stays as it was);
    ///   ``ObjectGraphError/queryGenerationOfAnotherCoordinator(_:)`` for a token of another
    ///   coordinator's context.
    public func setQueryGenerationFrom(_ token: QueryGenerationToken?) throws {
        guard let token else {
            queryGenerationState = .unpinned
            return
        }
        if let generation = token.generation {
            guard coordinator.owns(generation) else {
                throw ObjectGraphError.queryGenerationOfAnotherCoordinator(token.description)
            }
            queryGenerationState = .pinned(generation)
            return
        }
        queryGenerationState = .pinned(try coordinator.newGeneration())
    }

    /// The generation reads go to (`nil`: the stores as they are now); a context moved on to
    /// the newest generation takes it now.
    func readingGeneration() throws -> StoreGeneration? {
        switch queryGenerationState {
        case .unpinned: return nil
        case .pinned(let generation): return generation
        case .newest:
            let generation = try coordinator.newGeneration()
            queryGenerationState = .pinned(generation)
            return generation
        }
    }

    /// Unpins the context for a save (its checks, constraint merges and hooks read the stores
    /// as they are now) and returns what it was pinned to, for ``repin(_:saved:)``.
    func unpinForSave() -> QueryGenerationState {
        let pin = queryGenerationState
        if case .unpinned = pin { return pin }
        queryGenerationState = .unpinned
        return pin
    }

    /// Ends a save begun with ``unpinForSave()``: a pinned context moves to the newest
    /// generation when the save wrote, and is pinned as before when it did not.
    func repin(_ pin: QueryGenerationState, saved: Bool) {
        if case .unpinned = pin { return }
        queryGenerationState = saved ? .newest : pin
    }

    /// Moves a pinned context on to the newest generation (after its save, a merge, a reset):
    /// the generation it read is let go now, and the newest is taken at the next read.
    func advanceQueryGeneration() {
        if case .pinned = queryGenerationState { queryGenerationState = .newest }
    }
}
