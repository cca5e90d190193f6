/// Registers the objects of the rows a store decodes (the context's ``RowSink``) in a context, a few hundred
/// rows at a time while the store steps through them, collecting them in order (in one list,
/// or in a list per group).
///
/// Registering rows in small chunks as they are read keeps a fetch from holding all its rows
/// and all its objects at once, makes each object while its row's values are still in the
/// CPU's cache, and still allocates a chunk's objects side by side (walking them later stays
/// dense in memory).
///
/// No user code may run while the store is reading (the coordinator's lock is held, and the
/// store's statement is live). Rows of entities whose objects are of a ``ManagedObject``
/// subclass (whose initializer and `awakeFromFetch()` are the user's) are therefore kept, and
/// made into objects by ``finish()`` once the store has returned; from the first such row on,
/// every later row is kept too, so the order holds. The base class's `awakeFromFetch()` does
/// nothing, so rows registered during the read run no user code.
struct RowRegistrar: RowSink {
    let context: ManagedContext
    /// The objects of the rows taken without a group, in order.
    private(set) var objects: [ManagedObject] = []
    /// The objects of the rows taken in each group, in order.
    private(set) var lists: [[ManagedObject]]
    /// Rows taken and not registered yet (a list of a nominal type, which the runtime destroys
    /// faster than a list of tuples).
    private var pending: [PendingRead] = []
    /// Whether rows are registered while the store reads (no row needed user code so far).
    private var registersWhileReading = true
    /// Whether the context held no object when the read began: while rows are registered as
    /// they come, nothing but this read registers objects, so no row needs a lookup before
    /// its values are decoded (registering finds a row read twice all the same).
    private let startedEmpty: Bool
    /// The last entity whose objects were found to be of the base class (rows come entity by
    /// entity, so the class is looked up once a run).
    private var baseClassEntity = -1

    /// How many rows are registered together while the store reads.
    static let chunkSize = 256

    /// A registrar collecting objects in one list (`groups == 0`) or in `groups` lists.
    init(context: ManagedContext, groups: Int = 0) {
        self.context = context
        lists = Array(repeating: [], count: groups)
        startedEmpty = context.registry.isEmpty
    }

    /// Takes a row as the store reads it: its values go straight into a run of the context's
    /// slot blocks, unless the context holds its object loaded (then they are not read), or
    /// its ``RowCache`` holds them at this version (then its run is taken over, not read).
    mutating func take(
        id: ObjectID, entityIndex: Int, version: Int64, width: Int, group: Int?,
        values: (inout SlotRunWriter) throws -> Void
    ) throws {
        let registration = registration(of: id)
        var storage: SlotRange?
        if !registration.isLoaded {
            storage =
                try context.rowCache.take(id: id, version: version, width: width)
                ?? context.link.arena.fillRun(width: width, values)
        }
        // Made in the call: the row moves into the queue (a local row was copied there, and
        // then destroyed: three retains and releases a row).
        try take(
            DecodedRow(
                id: id, entityIndex: entityIndex, version: version, storage: storage,
                registration: registration),
            group: group)
    }

    /// What the context holds for the object with `id`.
    private func registration(of id: ObjectID) -> DecodedRow.Registration {
        if startedEmpty && registersWhileReading { return .none }
        guard let object = context.registry[id] else { return .none }
        return object.state == .loaded ? .loaded(object) : .fault(object)
    }

    /// Takes a row whose ``DecodedRow/registration`` was just asked with
    /// ``registration(of:)``; its object goes to the list of `group` (`nil`: the one list).
    private mutating func take(_ row: consuming DecodedRow, group: Int?) throws {
        if registersWhileReading, row.entityIndex != baseClassEntity {
            if context.objectClass(forEntityAt: row.entityIndex) == ManagedObject.self {
                baseClassEntity = row.entityIndex
            } else {
                registersWhileReading = false
            }
        }
        if pending.isEmpty { pending.reserveCapacity(Self.chunkSize) }
        pending.append(PendingRead(row: consume row, group: group))
        if registersWhileReading && pending.count >= Self.chunkSize {
            try register(asRead: true)
        }
    }

    /// Registers the rows not registered yet. Call once the store has returned.
    mutating func finish() throws {
        try register(asRead: registersWhileReading)
    }

    /// Registers the pending rows' objects, in order. `asRead`: no code ran since the rows were
    /// read, so what they say was registered holds; otherwise the registry is asked again (the
    /// hooks of earlier objects may have changed it).
    private mutating func register(asRead: Bool) throws {
        guard !pending.isEmpty else { return }
        for index in pending.indices {
            // While rows are registered as read, every row is of a base-class entity.
            let object = try context.materialize(
                &pending[index].row, asRead: asRead, baseClass: registersWhileReading)
            if let group = pending[index].group {
                lists[group].append(object)
            } else {
                objects.append(object)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }
}

/// A row taken by a ``RowRegistrar`` and not registered yet, with its group.
private struct PendingRead {
    var row: DecodedRow
    let group: Int?
}
