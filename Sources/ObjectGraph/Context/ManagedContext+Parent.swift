/// Parent and child contexts (Core Data's nested contexts): a child reads through its parent
/// and saves into it; the parent's save writes to the stores.
///
/// ```swift
/// let editor = ManagedContext(parent: context)      // a scratch pad over `context`
/// let person = try editor.existingObject(with: id)  // read as `context` holds it now
/// try person.set("Ann", for: "name")
/// try editor.save()                                 // now an unsaved change of `context`
/// try context.save()                                // now in the store
/// ```
///
/// A child shares its parent's coordinator and schema. Its fetches, counts and faults see the
/// parent's current objects: the parent's unsaved inserts (under their temporary IDs), changed
/// values and deletions (hidden); what the parent holds only as a fault comes from the parent's
/// own source (its store, or its parent). A child's ``save()`` pushes its inserts, updates and
/// deletions into the parent as the parent's own unsaved changes — one event (one undo step
/// when the parent has an undo manager) — and gives no permanent IDs: objects get them when
/// the root context saves them to the store. Transient attributes stay in the child, as a
/// store keeps none; uniqueness constraints are checked when the root saves to the store.
///
/// The child's object for an object it inserted keeps its temporary ID after the root saved
/// it, as in Core Data: the child's later edits of it still reach the row (its parents
/// remember the permanent ID, while a child lives), but asking the child for the permanent ID
/// gives a second object for the row. Call ``obtainPermanentIDs(for:)`` before the child's
/// save to have one ID throughout.
extension ManagedContext {
    /// Creates a child context of `parent`: it reads through `parent` and saves into it. The
    /// child holds its parent (as Core Data's `parentContext`), so the parent lives as long as
    /// any child; it has its own objects, undo manager (`nil` by default) and merge policy,
    /// and its own ``concurrencyType`` (confined by default). Every call into the parent enters
    /// the parent's queue (``performAndWait(_:)``).
    ///
    /// ```swift
    /// let child = ManagedContext(parent: viewContext)
    /// ```
    public convenience init(
        parent: ManagedContext, concurrencyType: ConcurrencyType = .confined,
        classes: ManagedObjectClasses? = nil, undoManager: UndoManager? = nil
    ) {
        let upstream = ParentContextSource(parent: parent)
        let inherited = upstream.withParent { $0.classes }
        self.init(
            coordinator: parent.coordinator, concurrencyType: concurrencyType,
            classes: classes ?? inherited, undoManager: undoManager)
        family.upstream = upstream
        upstream.childQueue = queue
        upstream.withParent { $0.adoptChild(self) }
    }

    /// The context this one reads through and saves into; `nil` for a context on the
    /// coordinator (a root context). Fixed when the context is made, so parents never form a
    /// loop.
    public var parent: ManagedContext? { family.upstream?.parent }

    // MARK: - Children, as their parent sees them

    /// Remembers `child`, weakly, for the did-save hook.
    private func adoptChild(_ child: ManagedContext) {
        family.children.removeAll { $0.context == nil }
        family.children.append(ContextReference(child))
    }

    /// Whether a child of this context is alive (the dead ones are let go here; once none is,
    /// no child can hold a temporary ID this context forwarded, and the table goes too).
    func hasLiveChildren() -> Bool {
        guard !family.children.isEmpty else { return false }
        family.children.removeAll { $0.context == nil }
        if family.children.isEmpty { family.forwardedIDs = [:] }
        return !family.children.isEmpty
    }

    /// Calls ``parentDidSave(_:)`` on each child of this context alive, but `sender`: after
    /// this context saved into its own source, or after one of its children (`sender`) saved
    /// into it.
    func notifyChildren(of notification: ContextNotification, except sender: ManagedContext?) {
        family.children.removeAll { $0.context == nil }
        for child in family.children.compactMap(\.context) where child !== sender {
            child.parentDidSave(notification)
        }
    }

    /// Called (inside the parent's queue) on a child when its parent saved, or another child
    /// of its parent saved into it. A child does not merge such saves unless asked: with
    /// ``automaticallyMergesChangesFromParent`` the save is merged on the child's own queue.
    /// The flag is read there too (this runs on the parent's queue, where the child's state
    /// may not be touched).
    func parentDidSave(_ notification: ContextNotification) {
        enqueue { child in
            guard child.automaticallyMergesChangesFromParent else { return }
            // As an automatic merge from the coordinator: nothing to report to.
            try? child.mergeChanges(fromContextDidSave: notification)
        }
    }

    /// `id`, or the permanent ID the object of the temporary `id` took here since a child may
    /// have read it (the child keeps its object under the temporary ID, as in Core Data).
    func forwarded(_ id: ObjectID) -> ObjectID {
        family.forwardedIDs.isEmpty ? id : family.forwardedIDs[id] ?? id
    }

    /// Remembers that the objects of `pairs` took permanent IDs here, when a child may hold
    /// them under their temporary ones.
    func rememberPermanentIDs(_ pairs: [(from: ObjectID, to: ObjectID)]) {
        guard hasLiveChildren() else { return }
        for (from, to) in pairs where from != to { family.forwardedIDs[from] = to }
    }

    // MARK: - Reading for a child

    /// `object`'s current values as a row (transient attributes empty, as a store keeps them).
    private func row(forChild object: ManagedObject) -> StoreRow {
        let schema = object.schema
        var values: [StoredValue] = []
        values.reserveCapacity(schema.slotCount)
        for position in 0..<schema.slotCount {
            values.append(
                schema.isTransient[position] ? .value(.null) : object.slots[position].storedValue)
        }
        return StoreRow(
            id: object.objectID, entityIndex: schema.index, version: object.version,
            values: values)
    }

    /// The row of `id` as this context holds it now: `nil` when it deleted the object; its
    /// source's row when it holds it only as a fault or not at all.
    func rowForChild(_ id: ObjectID) throws -> StoreRow? {
        let id = forwarded(id)
        if let object = registry[id] {
            if object.deletedFlag { return nil }
            if object.state == .loaded { return row(forChild: object) }
        }
        if id.isTemporary && family.upstream == nil { return nil }
        return try source.row(for: id, in: readingGeneration())
    }

    /// The rows matching `query` as this context sees them (its pending changes included),
    /// in order; rows with IDs only when the query asks for IDs.
    func rowsForChild(answering query: StoreQuery) throws -> [StoreRow] {
        let objects = try matchingObjects(
            request(forChild: query), result: query.result, needsKeyOrder: query.needsKeyOrder)
        return try objects.map { object in
            if query.result == .ids {
                return StoreRow(
                    id: object.objectID, entityIndex: object.schema.index,
                    version: object.version, values: [])
            }
            try fulfillFault(object)
            return row(forChild: object)
        }
    }

    /// How many objects match `query` as this context sees them.
    func countForChild(_ query: StoreQuery) throws -> Int {
        try count(for: request(forChild: query))
    }

    /// Every object of the entities (by index) as this context sees them, as rows.
    func rowsForChild(ofEntities entities: Set<Int>) throws -> [StoreRow] {
        var rows: [StoreRow] = []
        for index in entities.sorted() {
            rows += try rowsForChild(
                answering: StoreQuery(
                    entityIndex: index, entityIndexes: [index], predicate: nil,
                    sortDescriptors: [], offset: 0, limit: 0, result: .rows))
        }
        return rows
    }

    /// The IDs of the to-many relationship at `position` of `id` as this context holds it.
    func relatedIDsForChild(of id: ObjectID, entityIndex: Int, position: Int) throws
        -> [ObjectID]
    {
        let id = forwarded(id)
        if let object = registry[id], object.state == .loaded {
            switch object.slots[position] {
            case .toMany(let targets): return targets.map(\.objectID)
            case .toManyFault(let ids?): return ids
            default: return try relatedIDs(of: object, position: position)
            }
        }
        if id.isTemporary && family.upstream == nil { return [] }
        return try source.relatedIDs(
            of: id, entityIndex: entityIndex, position: position, in: readingGeneration())
    }

    /// The fetch request a child's `query` stands for.
    private func request(forChild query: StoreQuery) -> FetchRequest<ManagedObject> {
        let entity = schema.entities[query.entityIndex]
        var request = FetchRequest(
            entityName: entity.name, predicate: query.predicate,
            sortDescriptors: query.sortDescriptors)
        request.includesSubentities =
            Set(schema.family(of: entity).map(\.index)) == query.entityIndexes
        request.fetchOffset = query.offset
        request.fetchLimit = query.limit
        return request
    }

    // MARK: - Permanent IDs through the chain

    /// The objects held here under the temporary IDs of `pairs` take their permanent IDs (a
    /// descendant obtained them from the store), and so do this context's ancestors' ones.
    func adoptPermanentIDs(_ pairs: [(from: ObjectID, to: ObjectID)]) throws {
        var adopted: [(from: ObjectID, to: ObjectID)] = []
        for (from, to) in pairs {
            guard let object = registry[from], registry[to] == nil else { continue }
            registry[from] = nil
            object.objectID = to
            registry[to] = object
            adopted.append((from, to))
        }
        // Children may still hold these objects by their temporary IDs.
        for (from, to) in adopted { family.forwardedIDs[from] = to }
        try family.upstream?.adoptPermanentIDs(pairs)
    }
}
