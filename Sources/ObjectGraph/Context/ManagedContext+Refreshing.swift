/// Refreshing saved objects with their unsaved changes kept: many objects read at once.
extension ManagedContext {
    /// Reloads `objects` (saved objects of this context) from their stores, each one's unsaved
    /// changes kept on top of the store's values, reading their rows in one call per store
    /// rather than one per object (a refreshing fetch of 1,000 held objects reads them in a few
    /// queries).
    /// - Throws: ``ObjectGraphError/objectNotFound(_:)`` for the first object whose row is
    ///   gone; the objects before it are refreshed.
    func refreshMerging(_ objects: [ManagedObject]) throws {
        guard !objects.isEmpty else { return }
        let rows = try source.rows(for: objects.map(\.objectID), in: readingGeneration())
        for object in objects {
            guard let row = rows[object.objectID] else {
                throw ObjectGraphError.objectNotFound(object.objectID)
            }
            reload(object, from: row)
        }
    }

    /// Loads `row` into `object`, its unsaved changes and transient values kept on top.
    private func reload(_ object: ManagedObject, from row: StoreRow) {
        noteRefreshed(object)
        let kept = object.changedPositions().map { ($0, object.slots[$0]) }
        // Transient values are not in the store: they stay (after `awakeFromFetch`, as in
        // Core Data, so the hook sees the stored values).
        var transient: [(Int, Slot)] = []
        if object.state == .loaded {
            for (position, isTransient) in object.schema.isTransient.enumerated()
            where isTransient {
                transient.append((position, object.slots[position]))
            }
        }
        load(row, into: object)
        object.awakeFromFetch()
        for (position, slot) in transient { object.slots[position] = slot }
        for (position, slot) in kept {
            object.rememberOriginal(at: position)
            object.slots[position] = slot
        }
    }
}
