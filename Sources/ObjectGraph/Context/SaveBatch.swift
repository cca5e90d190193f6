/// What one save writes, gathered in one pass over a context's changed objects.
///
/// New objects come in the order they were inserted, saved objects (updated or deleted) in
/// key order: rows appended and visited in key order keep SQLite's B-trees dense and its page
/// writes sequential (random order makes it spill and rewrite pages again and again).
struct SaveBatch {
    /// New objects (not deleted since), in insertion order.
    private(set) var inserted: [ManagedObject] = []
    /// Saved objects with something to save, in key order: deleted ones, and updated ones with
    /// a bit per changed position (`nil` when a changed position is past 63).
    private(set) var saved: [(object: ManagedObject, change: Change)] = []

    /// What happens to a saved object.
    enum Change {
        case delete
        case update(changed: UInt64?)
    }

    /// Gathers what `objects` have to save.
    init(_ objects: some Sequence<ManagedObject>) {
        var new: [(order: UInt64, object: ManagedObject)] = []
        var old: [(order: UInt64, object: ManagedObject, change: Change)] = []
        for object in objects {
            if object.insertedFlag {
                if !object.deletedFlag { new.append((object.objectID.insertionOrder, object)) }
            } else if object.deletedFlag {
                old.append((object.objectID.insertionOrder, object, .delete))
            } else {
                let changed = object.changedPositionMask()
                if changed != 0 {
                    old.append((object.objectID.insertionOrder, object, .update(changed: changed)))
                }
            }
        }
        new.sort { $0.order < $1.order }
        old.sort { $0.order < $1.order }
        inserted = new.map(\.object)
        saved = old.map { ($0.object, $0.change) }
    }

    /// Whether there is nothing to save.
    var isEmpty: Bool { inserted.isEmpty && saved.isEmpty }

    /// Every object taking part.
    var objects: [ManagedObject] { inserted + saved.map(\.object) }
}
