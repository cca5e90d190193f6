/// How a save resolves conflicts (Core Data's merge policies): an object changed here that
/// someone else saved since this context read it (optimistic locking), and an object taking
/// uniquely constrained values another object holds already — inserted with them or updated to
/// them, found before the save or, when another coordinator or process saved the same values
/// first, by the SQLite file's unique index (the save then reads the stored holder and tries
/// again).
///
/// Properties merge one by one, relationships too: a to-many relationship both sides changed
/// is this context's list or the store's as a whole, and the objects on its other side follow
/// the list that wins. An object this context deleted is deleted under every policy but
/// ``rollback`` (which keeps the stored object, with the stored values, back in the
/// relationships of the objects around it). An object this context changed that the other
/// side deleted fails the save under every policy but ``rollback`` (which lets go of it); so
/// does a save still conflicting after 16 attempts while others keep saving the same objects.
/// A conflicting attempt writes nothing, so no policy leaves half a save in the store.
///
/// ```swift
/// context.mergePolicy = .mergeByPropertyObjectTrump
/// try person.set("Ada", for: "name")
/// try context.save()   // another context's change to "age" is kept; "name" is Ada
/// ```
public enum MergePolicy: Sendable, Hashable, CustomStringConvertible {
    /// The default: a save with a conflict throws one ``SaveError`` listing every conflict
    /// (``SaveError/conflicts(_:)`` or ``SaveError/constraintConflicts(_:)``) and writes nothing.
    case error
    /// Merged property by property: this context's changes win; properties it did not change
    /// take the values saved by the other side. An insert that collides with a stored object's
    /// unique values becomes an update of that object, with the insert's values; an updated
    /// object taking another's unique values is merged into that object the same way (its
    /// changed values win) and deleted.
    case mergeByPropertyObjectTrump
    /// Merged property by property: the values saved by the other side win; this context's
    /// changes to properties the other side did not change are kept. An insert that collides
    /// with a stored object's unique values becomes an update of that object, whose stored
    /// values win (the insert fills only what it holds empty); an updated object taking
    /// another's unique values is merged into that object the same way and deleted.
    ///
    /// A change computed from the value read (a counter's increment) is then dropped when the
    /// other side saved the property meanwhile, and the save writes nothing for the object:
    /// its did-save notification does not list it as updated. To lose no increment, apply it
    /// again to the store's value (which the object holds now) until a save writes it — the
    /// pattern for several contexts or processes on one store file:
    ///
    /// ```swift
    /// context.mergePolicy = .mergeByPropertyStoreTrump
    /// var written = false
    /// let observation = context.observe { note in
    ///     if note.kind == .didSave { written = note.changes.updated.contains(counter.objectID) }
    /// }
    /// repeat {
    ///     written = false
    ///     let value = counter["value"] as Int64? ?? 0
    ///     try counter.set(value + 1, for: "value")
    ///     try context.save()
    /// } while !written
    /// ```
    case mergeByPropertyStoreTrump
    /// This context's whole object is written over what the other side saved (its unchanged
    /// properties too). An object taking another's unique values is saved as it is; the other
    /// object is deleted, its to-many members joining the saved one.
    case overwrite
    /// This context's changes to the conflicting objects are discarded; they take the values
    /// the other side saved. The rest of the save proceeds. An insert taking another object's
    /// unique values is dropped; an update taking them is discarded (the object refreshed).
    case rollback

    /// The Core Data name (`NSErrorMergePolicy`, …).
    public var description: String {
        switch self {
        case .error: return "NSErrorMergePolicy"
        case .mergeByPropertyObjectTrump: return "NSMergeByPropertyObjectTrumpMergePolicy"
        case .mergeByPropertyStoreTrump: return "NSMergeByPropertyStoreTrumpMergePolicy"
        case .overwrite: return "NSOverwriteMergePolicy"
        case .rollback: return "NSRollbackMergePolicy"
        }
    }
}
