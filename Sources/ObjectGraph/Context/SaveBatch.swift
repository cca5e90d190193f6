/// What one save writes, gathered in one pass over a context's changed objects.
///
/// New objects come in the order they were inserted, saved objects (updated or deleted) by
/// entity and in key order: rows appended and visited in key order keep SQLite's B-trees
/// dense and its page writes sequential (random order makes it spill and rewrite pages again
/// and again). The
/// changed objects usually come in that order already (inserted one after another, or
/// changed in the order a fetch returned them): then nothing is sorted, and no list is made
/// beyond the two this batch keeps.
struct SaveBatch {
    /// New objects (not deleted since), in insertion order.
    private(set) var inserted: [ManagedObject] = []
    /// Saved objects with something to save, by entity (schema index) and in key order:
    /// deleted ones, and updated ones with a bit per changed position (`nil` when a changed
    /// position is past 63).
    private(set) var saved: [(object: ManagedObject, change: Change)] = []
    /// How many of ``saved`` are deletions.
    private(set) var deletedCount = 0

    /// What happens to a saved object.
    enum Change {
        case delete
        case update(changed: UInt64?)
    }

    /// Gathers what `objects` (about `count` of them) have to save.
    init(_ objects: some Sequence<ManagedObject>, count: Int) {
        inserted.reserveCapacity(count)
        saved.reserveCapacity(count)
        var insertedInOrder = true
        var savedInOrder = true
        var lastInserted: UInt64 = 0
        var lastSaved = (entity: 0, order: UInt64(0))
        for object in objects {
            let order = object.objectID.insertionOrder
            if object.insertedFlag {
                guard !object.deletedFlag else { continue }
                if !inserted.isEmpty && order < lastInserted { insertedInOrder = false }
                lastInserted = order
                inserted.append(object)
                continue
            }
            let change: Change
            if object.deletedFlag {
                change = .delete
                deletedCount += 1
            } else {
                let changed = object.changedPositionMask()
                guard changed != 0 else { continue }
                change = .update(changed: changed)
            }
            let key = (entity: object.schema.index, order: order)
            if !saved.isEmpty && key < lastSaved { savedInOrder = false }
            lastSaved = key
            saved.append((object, change))
        }
        if !insertedInOrder {
            inserted = Self.sorted(inserted, entityFirst: false) { $0 }
        }
        if !savedInOrder {
            saved = Self.sorted(saved, entityFirst: true) { $0.object }
        }
    }

    /// `items` sorted by their objects' insertion order, after their entity's schema index
    /// when `entityFirst` (each object's key read once).
    private static func sorted<Item>(
        _ items: [Item], entityFirst: Bool, by object: (Item) -> ManagedObject
    ) -> [Item] {
        var keyed = items.map { item in
            let object = object(item)
            return (
                entity: entityFirst ? object.schema.index : 0,
                order: object.objectID.insertionOrder, item: item
            )
        }
        keyed.sort { ($0.entity, $0.order) < ($1.entity, $1.order) }
        return keyed.map(\.item)
    }

    /// Empties the batch (once its objects are in a ``SavePlan``: the stores then save without
    /// this copy of the lists alive).
    mutating func removeAll() {
        inserted = []
        saved = []
        deletedCount = 0
    }

    /// Whether there is nothing to save.
    var isEmpty: Bool { inserted.isEmpty && saved.isEmpty }

    /// Every object taking part.
    var objects: [ManagedObject] {
        var all: [ManagedObject] = []
        all.reserveCapacity(inserted.count + saved.count)
        all += inserted
        for entry in saved { all.append(entry.object) }
        return all
    }
}
