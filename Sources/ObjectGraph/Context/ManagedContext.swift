import Foundation

/// The scratch pad where objects are inserted, fetched, edited, undone and saved.
///
/// A context holds at most one object per ``ObjectID`` (its identity map), tracks what was
/// inserted, changed and deleted, keeps relationships consistent on both sides as they change,
/// applies delete rules, records undo, and hands the coordinator one change set on ``save()``.
///
/// ```swift
/// let context = ManagedContext(coordinator: coordinator)
/// let course = try context.insert("Course")
/// try course.set("Algebra", for: "title")
/// try context.save()
/// ```
///
/// A context is not `Sendable`: handing it (or one of its objects) to another isolation domain
/// is a compile-time error. Its ``concurrencyType`` says where it may be used:
/// - ``ConcurrencyType/confined`` (the default): the isolation domain that holds it — a thread,
///   a task, an actor. Other threads make their own context on the same coordinator and pass
///   object IDs.
/// - ``ConcurrencyType/mainQueue``: the main queue (the main actor), as ``PersistentContainer/viewContext``
///   (on the main actor).
/// - ``ConcurrencyType/privateQueue``: its own serial queue, entered through
///   ``BackgroundContext``'s `perform` and `performAndWait` or a ``ModelActor``.
///
/// ```swift
/// let background = container.newBackgroundContext()
/// let id = try await background.perform { context in
///     let person = try context.insert("Person")
///     try context.save()
///     return person.objectID            // IDs cross queues; objects and contexts cannot
/// }
/// ```
///
/// ``performAndWait(_:)`` is re-entrant (inline on the context's own queue, or inside a block
/// of any context entered on the same thread). Debug builds check that queue-bound contexts are
/// used inside their queue and report a use outside it through
/// ``ConcurrencyDebugging/violationHandler``; release builds compile the check out. With
/// ``automaticallyMergesChangesFromParent`` a context merges, on its own queue, what other
/// contexts of its coordinator save.
public final class ManagedContext {
    /// The coordinator the context saves to and fetches from.
    public let coordinator: StoreCoordinator
    /// The undo manager recording this context's changes; `nil` (the default, as in Core Data)
    /// records nothing, which keeps large imports fast and small.
    ///
    /// ```swift
    /// context.undoManager = UndoManager()
    /// try course.set("Geometry", for: "title")
    /// context.undo()   // the title is back
    /// ```
    public var undoManager: UndoManager? {
        didSet { attachUndoManager(replacing: oldValue) }
    }
    /// A name for debugging and notifications; persistent history records it as the
    /// transaction's ``HistoryTransaction/contextName``.
    public var name: String?
    /// Who the context's saves are by, for persistent history (Core Data's
    /// `transactionAuthor`): recorded as each transaction's ``HistoryTransaction/author``, so
    /// a reader can skip its own changes.
    ///
    /// ```swift
    /// context.transactionAuthor = "app"
    /// ```
    public var transactionAuthor: String?
    /// How a save resolves conflicts with what others saved since this context read its
    /// objects, and inserts colliding with stored unique values. ``MergePolicy/error`` (the
    /// default, as in Core Data) throws one error listing them all and writes nothing.
    ///
    /// ```swift
    /// background.mergePolicy = .mergeByPropertyObjectTrump   // upsert on unique "email"
    /// ```
    public var mergePolicy: MergePolicy = .error
    /// Whether the context keeps every registered object alive (Core Data's
    /// `retainsRegisteredObjects`). `false` by default: the context keeps only the objects with
    /// unsaved changes (inserted, changed or deleted); an object fetched or saved that nothing
    /// else holds (the app, or a related object held) is released and leaves
    /// ``registeredObjects``, and is read again from the store when next asked for.
    ///
    /// ```swift
    /// context.retainsRegisteredObjects = true   // a cache: fetched objects stay registered
    /// _ = try context.fetch(FetchRequest(entityName: "Course"))
    /// context.registeredObjects.count           // every course
    /// ```
    public var retainsRegisteredObjects: Bool {
        get { registry.retainsObjects }
        set {
            // The objects it stops retaining are let go here, once the map is no longer being
            // changed: their `deinit` leaves it.
            _ = registry.setRetainsObjects(newValue)
        }
    }

    /// The coordinator's schema (kept here: one load less on every lookup).
    let schema: ModelSchema
    @exclusivity(unchecked) var registry = ObjectRegistry()
    /// What the context's objects hold to reach it (see ``ContextLink``).
    let link = ContextLink()
    /// The committed values of unchanged objects the context let go, for fetches that read
    /// their rows again (see ``RowCache``).
    let rowCache = RowCache()
    /// Objects with a change since the last save (inserted, deleted or edited).
    @exclusivity(unchecked) var touched = ChangedObjects()
    var classes: ManagedObjectClasses
    var observers: [UUID: (ContextNotification) -> Void] = [:]
    /// Told what another context saved when it was merged here, after the merge's
    /// objects-did-change (fetched-results controllers: objects updated there that this
    /// context did not hold loaded are not in that notification, yet may match now).
    var mergeObservers: [UUID: (ContextChange) -> Void] = [:]
    var pendingChange = ContextChange()
    /// Faults fetched with a batch size: the IDs of the batch each belongs to, loaded together
    /// when the first of them is used.
    @exclusivity(unchecked) var faultBatches: [ObjectID: [ObjectID]] = [:]
    /// Counts changes (for a save to notice what `willSave` hooks changed).
    var changeCount = 0
    /// The class of each entity's objects, looked up once (by entity index).
    @exclusivity(unchecked) var classByEntity: [ManagedObject.Type?] = []
    /// Where the context's work runs (see ``ContextQueue``).
    let queue: ContextQueue
    /// Set while ``automaticallyMergesChangesFromParent`` is on (a root context's registration
    /// with its coordinator's saves).
    var automaticMerge: AutomaticMerge?
    /// Set while ``automaticallyMergesRemoteChanges`` is on (`ManagedContext+RemoteChanges.swift`).
    var remoteMerge: RemoteChangeMerge?
    /// By store identifier, the last history transaction a remote change brought into the
    /// context (`ManagedContext+RemoteHistory.swift`).
    var remoteHistoryTokens: [String: HistoryToken] = [:]
    /// The context's place among parent and child contexts (see `ManagedContext+Parent.swift`).
    var family = ContextFamily()
    /// The generation of the stores reads see (`ManagedContext+QueryGenerations.swift`).
    var queryGenerationState = QueryGenerationState.unpinned
    /// Typed writes the objects could not take, reported at validation (`RejectedWrites.swift`).
    var rejectedWrites = RejectedWrites()

    /// Where the context's rows come from and its saves go: its parent, or the coordinator.
    var source: any RowSource {
        if let upstream = family.upstream { return upstream }
        return coordinator
    }

    /// Creates a context on `coordinator`, bound as `concurrencyType` says (confined to the
    /// isolation domain that holds it, by default), recording undo in `undoManager` when one
    /// is given.
    ///
    /// ```swift
    /// let context = ManagedContext(coordinator: coordinator)
    /// let view = ManagedContext(coordinator: coordinator, concurrencyType: .mainQueue)
    /// ```
    public init(
        coordinator: StoreCoordinator, concurrencyType: ConcurrencyType = .confined,
        classes: ManagedObjectClasses = .shared, undoManager: UndoManager? = nil
    ) {
        self.coordinator = coordinator
        queue = ContextQueue(kind: concurrencyType)
        schema = coordinator.schema
        self.classes = classes
        self.undoManager = undoManager
        link.context = self
        attachUndoManager(replacing: nil)
    }

    deinit {
        link.context = nil
        // Objects that outlive the context hold the link: it need not keep a block too.
        link.arena = SlotArena()
        for object in registry.values { object.breakReferences() }
    }

    // MARK: - State

    /// Every object the context holds.
    public var registeredObjects: [ManagedObject] { Array(registry.values) }
    /// Objects inserted and not saved yet.
    public var insertedObjects: [ManagedObject] { touched.values.filter(\.isInserted) }
    /// Objects changed and not saved yet (not inserted, not deleted).
    public var updatedObjects: [ManagedObject] { touched.values.filter(\.isUpdated) }
    /// Objects deleted and not saved yet (objects inserted and then deleted are not listed).
    public var deletedObjects: [ManagedObject] {
        touched.values.filter { $0.deletedFlag && !$0.insertedFlag }
    }
    /// Whether anything is unsaved.
    public var hasChanges: Bool { touched.values.contains { $0.hasUnsavedWork } }

    // MARK: - Inserting

    /// Inserts a new object of the entity named `entityName`, with its default values.
    /// - Throws: ``ObjectGraphError`` for an unknown or abstract entity.
    @discardableResult
    public func insert(_ entityName: String) throws -> ManagedObject {
        try insert(entityName, as: ManagedObject.self)
    }

    /// Inserts a new object as the registered subclass `type` (its entity found from the class
    /// registration, or given as `entityName`).
    ///
    /// ```swift
    /// let student = try context.insert(Student.self)
    /// ```
    public func insert<T: ManagedObject>(_ type: T.Type, entity entityName: String? = nil) throws
        -> T
    {
        guard let name = entityName ?? classes.entityName(for: type, in: schema.model) else {
            throw ObjectGraphError.unsupported(
                "\(type) is not registered for an entity; pass entity: or register it")
        }
        return try insert(name, as: type)
    }

    private func insert<T: ManagedObject>(_ entityName: String, as type: T.Type) throws -> T {
        checkQueue("insert")
        let entity = try schema.requireEntity(named: entityName)
        guard !entity.entity.isAbstract else { throw ObjectGraphError.abstractEntity(entityName) }
        let id = ObjectID(space: entity.temporarySpace, key: ObjectID.newTemporaryKey())
        let object = makeObject(entity: entity, id: id, isFault: false)
        guard let typed = object as? T else {
            throw ObjectGraphError.unsupported(
                "\(entityName) is registered as \(Swift.type(of: object)), not \(type)")
        }
        for (position, value) in entity.defaultValues where value != .null {
            object.slots[position] = .value(value)
        }
        registry[id] = object
        markInserted(object)
        object.awakeFromInsert()
        return typed
    }

    func makeObject(
        entity: EntitySchema, id: ObjectID, isFault: Bool, slots: [Slot]? = nil,
        storage: SlotRange? = nil
    ) -> ManagedObject {
        let type = objectClass(forEntityAt: entity.index)
        let creation = ObjectCreation(
            schema: entity, id: id, context: self, isFault: isFault, slots: slots,
            storage: storage)
        // The base class directly: a static call the compiler can see through (moving the
        // creation's fields in), where `type.init` is a dynamic one.
        if type == ManagedObject.self { return ManagedObject(creation) }
        return type.init(creation)
    }

    /// The class of the objects of the entity at `index` in the schema (looked up once).
    func objectClass(forEntityAt index: Int) -> ManagedObject.Type {
        if index < classByEntity.count, let known = classByEntity[index] { return known }
        if index >= classByEntity.count {
            classByEntity += Array(repeating: nil, count: index + 1 - classByEntity.count)
        }
        let type = classes.type(for: schema.entities[index].entity) ?? ManagedObject.self
        classByEntity[index] = type
        return type
    }

    // MARK: - Finding objects

    /// The object with `id`: the registered one, or a fault whose values load on first use.
    /// - Throws: ``ObjectGraphError/unknownEntity(_:)`` when the ID's entity is not in the model.
    public func object(with id: ObjectID) throws -> ManagedObject {
        checkQueue("object lookup")
        if let object = registry[id] { return object }
        return registerFault(id, entity: try schema.requireEntity(named: id.entityName))
    }

    func registerFault(_ id: ObjectID, entity: EntitySchema) -> ManagedObject {
        let object = makeObject(entity: entity, id: id, isFault: true)
        registry[id] = object
        return object
    }

    /// The object with `id`, loaded: throws when no store has it.
    public func existingObject(with id: ObjectID) throws -> ManagedObject {
        let wasRegistered = registry[id] != nil
        let object = try object(with: id)
        do {
            try object.fulfill()
        } catch {
            // A fault made just for this lookup must not stay behind for a missing object.
            if !wasRegistered { registry[id] = nil }
            throw error
        }
        return object
    }

    /// The object with `id` if the context holds it; never loads anything.
    public func registeredObject(for id: ObjectID) -> ManagedObject? {
        checkQueue("object lookup")
        return registry[id]
    }

    // MARK: - Discarding changes

    /// Discards every unsaved change: inserted objects leave, deleted ones come back, edited
    /// ones return to their saved values. Undo history is cleared.
    ///
    /// Observers get one ``ContextNotification/Kind/objectsDidChange`` saying what the rollback
    /// changed: the inserted objects as deleted, the deleted ones as inserted (they are back),
    /// the edited ones as updated.
    public func rollback() {
        checkQueue("rollback")
        var change = ContextChange()
        let observed = !observers.isEmpty
        for object in touched.values {
            if object.insertedFlag {
                if observed && !object.deletedFlag { change.deleted.insert(object.objectID) }
                forget(object)
            } else {
                if observed {
                    if object.deletedFlag {
                        change.inserted.insert(object.objectID)
                    } else {
                        change.updated.insert(object.objectID)
                    }
                }
                object.deletedFlag = false
                object.revertToCommitted()
            }
        }
        untouchAll()
        rejectedWrites.removeAll()
        releaseUnregistered()
        undoManager?.removeAllActions()
        // Changes not posted yet were undone with the rest.
        pendingChange = ContextChange()
        if !change.isEmpty { post(ContextNotification(kind: .objectsDidChange, changes: change)) }
    }

    /// Called by `object`'s `deinit`: it leaves the identity map (unless another object took
    /// its place) and its fault batch, and an object loaded without unsaved changes leaves its
    /// run of slots to the ``rowCache``. Returns whether it did (the run is the cache's then).
    func objectWillGo(_ object: ManagedObject) -> Bool {
        let address = Unmanaged.passUnretained(object).toOpaque()
        let id = object.objectID
        let wasRegistered = registry.remove(id, ifItIs: address)
        if !faultBatches.isEmpty { faultBatches[id] = nil }
        guard wasRegistered, object.hasCommittedValuesOnly,
            rowCache.accepts(id: id, version: object.version)
        else { return false }
        object.unresolveForCache()
        rowCache.keep(
            id: id, version: object.version,
            run: SlotRange(block: object.slotBlock, offset: object.slotOffset),
            width: object.schema.slotCount)
        return true
    }

    /// Lets go of the objects the identity map retained (``retainsRegisteredObjects``) that
    /// are no longer registered, once they are many.
    func releaseUnregistered() {
        _ = registry.releaseUnregistered()  // let go here, outside the map
    }

    /// Takes `object` out of the context for good: unregistered, its relationships dropped (so
    /// object cycles are freed) and its context gone.
    func forget(_ object: ManagedObject) {
        registry[object.objectID] = nil
        object.breakReferences()
        object.context = nil
    }

    /// Forgets every object: the context is as new. Objects it held must not be used again.
    /// Observers get one ``ContextNotification/Kind/objectsDidChange`` with
    /// ``ContextChange/invalidatedAll`` set and every object it held as
    /// ``ContextChange/invalidated`` (Core Data's `NSInvalidatedAllObjectsKey`).
    public func reset() {
        checkQueue("reset")
        let invalidated = observers.isEmpty ? [] : Set(registry.values.lazy.map(\.objectID))
        defer { postInvalidatedAll(invalidated) }
        for object in registry.values {
            object.breakReferences()
            object.context = nil
        }
        _ = registry.removeAll()  // let go here, outside the map
        rowCache.removeAll()
        advanceQueryGeneration()
        untouchAll()
        rejectedWrites.removeAll()
        faultBatches.removeAll()
        undoManager?.removeAllActions()
    }

    /// Reloads `object` from its store. With `mergeChanges`, unsaved changes are kept on top
    /// of the store's values; otherwise they are discarded and the object becomes a fault
    /// (``ManagedObject/isFault``), its values read again from the store on next use.
    ///
    /// Without `mergeChanges` an inserted object not saved yet loses its insertion too, as in
    /// Core Data (its insertion is one of its pending changes): it is no longer among
    /// ``insertedObjects`` and will not be saved, and reading it afterwards finds no row
    /// (``ObjectGraphError/objectNotFound(_:)``). With `mergeChanges` it stays as it is.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        checkQueue("refresh")
        guard object.context === self else { return }
        if object.insertedFlag {
            guard !mergeChanges else { return }
            noteRefreshed(object)
            turnIntoFault(object)
            return
        }
        if mergeChanges { return try refreshMerging([object]) }
        noteRefreshed(object)
        if object.state == .loaded {
            turnIntoFault(object)
        } else {
            untouch(object)
            object.deletedFlag = false
        }
    }

    /// Turns `object` (loaded) into a fault holding nothing, its pending changes (an insertion
    /// too) discarded.
    private func turnIntoFault(_ object: ManagedObject) {
        object.willTurnIntoFault()
        object.state = .fault
        object.isUnfired = false
        object.forgetCommittedValues()
        untouch(object)
        object.insertedFlag = false
        object.deletedFlag = false
        // A fault holds nothing: its values (and the objects its relationships held, which
        // may hold it in turn) are let go, and load again on next use.
        let slots = object.slots
        for position in slots.indices {
            slots[position] = ManagedObject.emptySlot(object.schema.kinds[position])
        }
        object.observedChangeOfAll()
        object.didTurnIntoFault()
    }

    /// Refreshes every object the context holds loaded (Core Data's `refreshAllObjects()`):
    /// objects with unsaved changes are read again with their changes kept on top; the others
    /// turn into faults, letting go of their values until next used. Inserted objects stay as
    /// they are.
    /// - Throws: ``ObjectGraphError/objectNotFound(_:)`` or a store error when a changed
    ///   object cannot be read again; the objects refreshed before it stay refreshed.
    public func refreshAllObjects() throws {
        var changed: [ManagedObject] = []
        for object in registry.values where object.state == .loaded && !object.insertedFlag {
            if object.hasChanges {
                changed.append(object)
            } else {
                try refresh(object, mergeChanges: false)
            }
        }
        try refreshMerging(changed)  // their rows read together
    }

    /// Gives inserted objects their permanent IDs now, before saving. In a child context they
    /// come from the store through the chain of parents, and the parents' objects of the same
    /// temporary IDs take them too.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        checkQueue("obtainPermanentIDs")
        guard family.upstream != nil || hasLiveChildren() else {
            return try assignPermanentIDs(objects[...])
        }
        let temporary = objects.map(\.objectID)
        try assignPermanentIDs(objects[...])
        let pairs = zip(temporary, objects.map(\.objectID)).filter { $0 != $1 }
            .map { (from: $0, to: $1) }
        guard !pairs.isEmpty else { return }
        rememberPermanentIDs(pairs)
        try family.upstream?.adoptPermanentIDs(pairs)
    }

    /// Gives the objects among `objects` with temporary IDs their permanent ones, a run of
    /// keys per entity hierarchy, without copying the list (a save passes its 100,000 new
    /// objects).
    func assignPermanentIDs(_ objects: ArraySlice<ManagedObject>) throws {
        func needsKey(_ object: ManagedObject) -> Bool {
            object.objectID.isTemporary && object.context === self
        }
        // Per root entity: how many objects need keys, and their entity if they share one.
        var groups: [Int: (count: Int, entity: Int?)] = [:]
        for object in objects where needsKey(object) {
            let root = schema.root(of: object.schema).index
            let entity = object.schema.index
            if let group = groups[root] {
                groups[root] = (group.count + 1, group.entity == entity ? entity : nil)
            } else {
                groups[root] = (1, entity)
            }
        }
        guard !groups.isEmpty else { return }
        for (rootIndex, group) in groups.sorted(by: { $0.key < $1.key }) {
            let (range, storeIdentifier) = try source.newPrimaryKeys(
                rootEntity: rootIndex, count: group.count)
            var keys = range.makeIterator()
            func inGroup(_ object: ManagedObject) -> Bool {
                needsKey(object) && schema.root(of: object.schema).index == rootIndex
            }
            // All out first, then all in: the hash table of temporary IDs is freed once empty,
            // before the key tables of the permanent ones grow.
            for object in objects where inGroup(object) { registry[object.objectID] = nil }
            var spaces: [Int: ObjectIDSpace] = [:]
            if let entity = group.entity {
                // One entity: its key table is made the size of the new keys at once.
                let space = ObjectIDSpace.named(
                    schema.entities[entity].name, storeIdentifier: storeIdentifier)
                spaces[entity] = space
                registry.reserveKeys(range, in: space)
            }
            for object in objects where inGroup(object) {
                guard let key = keys.next() else { break }
                let entityIndex = object.schema.index
                let space =
                    spaces[entityIndex]
                    ?? .named(object.schema.name, storeIdentifier: storeIdentifier)
                spaces[entityIndex] = space
                let id = ObjectID(space: space, key: .permanent(key))
                object.objectID = id
                registry[id] = object
            }
        }
    }
}

extension ManagedObject {
    /// Whether the object has something to save.
    var hasUnsavedWork: Bool {
        if insertedFlag { return !deletedFlag }
        return deletedFlag || hasChangedValues
    }

    /// Drops every reference to other objects (so object cycles are freed).
    func breakReferences() {
        let kinds = schema.kinds
        for index in schema.relationshipPositions where index < slots.count {
            switch slots[index] {
            case .toOne(nil): continue
            case .toMany(let list) where list.isEmpty: continue
            default: slots[index] = kinds[index] == .toMany ? .toMany([]) : .toOne(nil)
            }
        }
        forgetCommittedValues()
    }
}

extension ManagedContext {
    /// The IDs a store holds for the to-many relationship at `position` of `object`.
    func relatedIDs(of object: ManagedObject, position: Int) throws -> [ObjectID] {
        // A child asks its parent, which may hold the object inserted (by its temporary ID).
        guard family.upstream != nil || !object.objectID.isTemporary else { return [] }
        return try source.relatedIDs(
            of: object.objectID, entityIndex: object.schema.index, position: position,
            in: readingGeneration())
    }
}

/// A context belongs to the isolation domain that made it: handing it to another thread is a
/// compile-time error in Swift 6 mode, not a data race. Make another context on the same
/// coordinator there, and pass object IDs.
@available(*, unavailable, message: "make a context on the other thread and pass object IDs")
extension ManagedContext: Sendable {}
