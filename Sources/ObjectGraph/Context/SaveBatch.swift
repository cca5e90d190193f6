/// What one save writes, gathered in one pass over a context's changed objects: one list of
/// objects, the new ones first.
///
/// New objects come in the order they were inserted, saved objects (updated or deleted) in
/// key order within each entity: rows appended and visited in key order keep SQLite's B-trees
/// dense and its page writes sequential (random order makes it spill and rewrite pages again
/// and again); rows of different tables may interleave. The changed objects usually come in
/// that order already (inserted one after another, or changed in the order a fetch returned
/// them, their related objects changed along with them): then nothing is sorted. Otherwise
/// the saved objects are sorted by entity, then key.
///
/// What happens to a saved object is read from it when the save is planned (deleted, or
/// updated with ``ManagedObject/changedPositionMask()``), so the batch keeps one reference
/// per object and nothing else.
struct SaveBatch {
    /// Every object taking part: the new ones (not deleted since) in insertion order, then the
    /// saved ones with something to save (deleted, or with changed values) in key order within
    /// each entity.
    private(set) var objects: [ManagedObject] = []
    /// How many of ``objects`` are new.
    private(set) var insertedCount = 0
    /// How many of ``objects`` are deleted.
    private(set) var deletedCount = 0
    /// Saved objects whose only changes are to transient attributes: nothing to write, but the
    /// save makes their values the committed ones.
    private(set) var transientOnly: [ManagedObject] = []

    /// An empty batch.
    init() {}

    /// Gathers what `objects` (about `count` of them) have to save.
    init(_ changed: some Sequence<ManagedObject>, count: Int) {
        objects.reserveCapacity(count)
        var saved: [ManagedObject] = []
        var insertedInOrder = true
        var savedInOrder = true
        var lastInserted: UInt64 = 0
        // The key of the last saved object of each entity (by schema index), if any.
        var lastSaved: [UInt64?] = []
        for object in changed {
            let order = object.objectID.insertionOrder
            if object.insertedFlag {
                guard !object.deletedFlag else { continue }
                if !objects.isEmpty && order < lastInserted { insertedInOrder = false }
                lastInserted = order
                objects.append(object)
                continue
            }
            if object.deletedFlag {
                deletedCount += 1
            } else if !object.hasPersistentChangedValues {
                if object.hasChangedValues { transientOnly.append(object) }
                continue
            }
            let entity = object.schema.index
            if entity >= lastSaved.count {
                lastSaved += Array(repeating: nil, count: entity + 1 - lastSaved.count)
            }
            if let last = lastSaved[entity], order < last { savedInOrder = false }
            lastSaved[entity] = order
            if saved.isEmpty { saved.reserveCapacity(count - objects.count) }
            saved.append(object)
        }
        insertedCount = objects.count
        if !insertedInOrder { objects = Self.sorted(objects, entityFirst: false) }
        objects += savedInOrder ? saved : Self.sorted(saved, entityFirst: true)
    }

    /// `objects` sorted by insertion order, after their entity's schema index when
    /// `entityFirst` (each object's key read once).
    private static func sorted(_ objects: [ManagedObject], entityFirst: Bool) -> [ManagedObject] {
        var keyed = objects.map { object in
            (
                entity: entityFirst ? object.schema.index : 0,
                order: object.objectID.insertionOrder, object: object
            )
        }
        keyed.sort { ($0.entity, $0.order) < ($1.entity, $1.order) }
        return keyed.map(\.object)
    }

    /// The new objects, in insertion order.
    var inserted: ArraySlice<ManagedObject> { objects[..<insertedCount] }

    /// The saved objects with something to save, in key order within each entity.
    var saved: ArraySlice<ManagedObject> { objects[insertedCount...] }

    /// How many saved objects are updated (not deleted).
    var updatedCount: Int { objects.count - insertedCount - deletedCount }

    /// Whether there is nothing to save.
    var isEmpty: Bool { objects.isEmpty }
}
