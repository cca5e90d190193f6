/// Saving: a context's change set routed to the stores of its entities, checked by every store
/// before any writes.
extension StoreCoordinator {
    /// Saves `changes`, each row in the store of its entity. Every store checks its part for
    /// optimistic-locking conflicts before any store writes; each store then writes its part
    /// atomically.
    ///
    /// - Returns: each store's part that was saved (for the caller to commit from), and, when
    ///   some stores saved and then one failed, the ``SaveError/partial(saved:failed:error:)``
    ///   to report.
    /// - Throws: ``SaveError/store(_:)`` with ``StoreError/readOnly(path:)`` for a read-only
    ///   store taking part,
    ///   ``SaveError/conflicts(_:)``, ``ObjectGraphError/noStore(entity:)``, or a store's error
    ///   when no store saved: nothing was written.
    ///
    /// Stores keeping history record the save as made by `origin`.
    ///
    /// A save whose every store is a ``ConcurrentSavingStore`` (PostgreSQL) is planned under
    /// the lock and written outside it, by a save writer per store, so that the saves of
    /// several contexts run at once; any other save is written under the lock, one at a time.
    func save(_ changes: ChangeSet, origin: HistoryOrigin = HistoryOrigin()) throws
        -> SaveOutcome
    {
        let step = try withStoresLocked { stores -> SaveStep in
            let plan = try SavePlan(changes, stores: stores, schema: schema)
            // Stores that save on writers of their own save outside the lock, several at once.
            if let detached = plan.withSaveWriters() { return .detached(detached) }
            return .done(try write(plan, origin: origin))
        }
        switch step {
        case .done(let outcome): return outcome
        case .detached(let plan): return try write(plan, origin: origin)
        }
    }

    /// Writes `plan`: checks every store's part for conflicts and uniqueness before any store
    /// writes, then has each store write its part.
    private func write(_ plan: SavePlan, origin: HistoryOrigin) throws -> SaveOutcome {
        var conflicts: [SaveConflict] = []
        for (store, part) in plan.work {
            if store.description.isReadOnly {
                throw SaveError.store(.readOnly(path: store.description.displayPath))
            }
            conflicts += try store.conflicts(in: part)
        }
        guard conflicts.isEmpty else { throw SaveError.conflicts(conflicts) }
        for (store, part) in plan.work {
            try Self.checkUniqueness(part, in: store, schema: schema)
        }
        var saved: [StoreDescription] = []
        for (index, (store, part)) in plan.work.enumerated() {
            do {
                store.history?.historyOrigin = origin
                try store.save(part)
                saved.append(store.description)
            } catch {
                if saved.isEmpty { throw error }
                return SaveOutcome(
                    saved: plan.work[..<index].map(\.changes),
                    failure: .partial(
                        saved: saved, failed: store.description, error: "\(error)"))
            }
        }
        return SaveOutcome(saved: plan.work.map(\.changes), failure: nil)
    }
}

/// How far a save got under the coordinator's lock.
private enum SaveStep {
    /// Written, under the lock.
    case done(SaveOutcome)
    /// To be written outside the lock, by the stores' save writers.
    case detached(SavePlan)
}

/// What a save wrote: the parts the stores saved, for the context to commit, and the error to
/// report when a store failed after others had saved.
struct SaveOutcome {
    /// The parts the stores saved.
    let saved: [ChangeSet]
    /// `nil` when every store saved; else a ``SaveError/partial(saved:failed:error:)``.
    let failure: SaveError?
}
