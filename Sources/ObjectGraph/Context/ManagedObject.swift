import Foundation

/// An object of the graph: an instance of an entity, living in a ``ManagedContext``.
///
/// Values are stored per property position. Read them with the subscript or typed getters,
/// write them with ``set(_:for:)`` (which checks the type and throws, naming entity and
/// property), and relationships with ``setObject(_:for:)``, ``add(_:to:at:)`` and
/// ``remove(_:from:)``; the inverse side is kept in step at once.
///
/// ```swift
/// let student = try context.insert("Student")
/// try student.set("Ada", for: "name")
/// let name: String? = student["name"]
/// try student.add(course, to: "courses")   // course.students now holds student too
/// ```
///
/// Subclass it for typed accessors and lifecycle hooks, and register the class (see
/// ``ManagedObjectClasses``):
///
/// ```swift
/// final class Student: ManagedObject {
///     var name: String? { self["name"] }
///     override func awakeFromInsert() { try? set(Date(), for: "enrolled") }
/// }
/// ```
///
/// Managed objects belong to their context's isolation domain; pass ``objectID`` to other
/// threads instead.
open class ManagedObject {
    // Stored properties in this order, the flags in one byte, the slot offset in the two
    // after it and the change-set place in four: 88 bytes an instance, which the allocator
    // serves from its 96-byte class (one field more, or the flags as separate Bools, and
    // every object costs 112 or 128).
    @usableFromInline let schema: EntitySchema
    /// The block holding the object's slots (see ``slots``).
    @usableFromInline let slotBlock: SlotBlock
    /// The committed values of the positions changed since they were committed (one entry
    /// per position, recorded before its first change). Every other position's committed value
    /// is its current slot, so a change costs one entry, not a copy of every slot.
    @exclusivity(unchecked) var originals = OriginalSlots.none
    /// The store's row version when the values were read (optimistic locking).
    @exclusivity(unchecked) var version: Int64 = 0
    /// The link to the context the object lives in (`nil` once it is removed from it).
    @usableFromInline @exclusivity(unchecked) final var link: ContextLink?
    /// The object's ID: temporary until the first save, then permanent.
    @exclusivity(unchecked) public internal(set) var objectID: ObjectID
    @usableFromInline @exclusivity(unchecked) final var flags: Flags
    /// Where the object's slots start in ``slotBlock``.
    @usableFromInline let slotOffset: UInt16
    /// Where the object is in its context's set of changed objects (-1: not in it).
    @exclusivity(unchecked) var touchIndex: Int32 = -1

    @usableFromInline
    struct Flags: OptionSet, Sendable {
        @usableFromInline let rawValue: UInt8

        @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }

        @inlinable static var fault: Flags { Flags(rawValue: 1) }
        static let committed = Flags(rawValue: 2)
        static let inserted = Flags(rawValue: 4)
        static let deleted = Flags(rawValue: 8)
        /// Loaded by a fetch (or with another object's fault) and not used yet: the object
        /// reports itself a fault until a property is read, as Core Data's do.
        @inlinable static var unfired: Flags { Flags(rawValue: 16) }
        /// Has an observation registrar (see ``observationAccess(_:)``).
        static let observed = Flags(rawValue: 32)
        /// A fault, loaded or not.
        @inlinable static var anyFault: Flags { Flags(rawValue: 1 | 16) }
    }

    private func setFlag(_ flag: Flags, _ isOn: Bool) {
        if isOn { flags.insert(flag) } else { flags.remove(flag) }
    }

    /// Whether the values are loaded or the object is still a fault.
    var state: ObjectState {
        get { flags.contains(.fault) ? .fault : .loaded }
        set { setFlag(.fault, newValue == .fault) }
    }
    /// Whether the object has committed values: it was fetched or saved (an insert not saved
    /// yet has none).
    var hasCommitted: Bool {
        get { flags.contains(.committed) }
        set { setFlag(.committed, newValue) }
    }
    /// Whether the object was inserted and not saved yet (deleted or not).
    var insertedFlag: Bool {
        get { flags.contains(.inserted) }
        set { setFlag(.inserted, newValue) }
    }
    /// Whether the object was deleted and the deletion not saved yet.
    var deletedFlag: Bool {
        get { flags.contains(.deleted) }
        set { setFlag(.deleted, newValue) }
    }
    /// Whether the object's values were loaded for it without being used yet (see
    /// ``isFault``): set by fetches that return faults, cleared by the first use.
    var isUnfired: Bool {
        get { flags.contains(.unfired) }
        set { setFlag(.unfired, newValue) }
    }

    /// Whether the object has an observation registrar in its context's link.
    var isObserved: Bool {
        get { flags.contains(.observed) }
        set { setFlag(.observed, newValue) }
    }

    /// Creates an object. Contexts call this; use ``ManagedContext/insert(_:)`` to make objects.
    public required init(_ creation: ObjectCreation) {
        schema = creation.schema
        objectID = creation.id
        link = creation.link
        flags = creation.isFault ? .fault : []
        let run =
            creation.storage
            ?? Self.filledRun(creation.schema, creation.slots, arena: &creation.link.arena)
        slotBlock = run.block
        slotOffset = run.offset
    }

    /// Leaves the context's identity map (which does not keep its objects alive, as in Core
    /// Data), then empties the object's slots: its block lives on while other objects in it do,
    /// and must not keep this object's values (strings, data, related objects) alive with it.
    /// An object loaded without unsaved changes leaves its run to the context's ``RowCache``
    /// instead (which empties it when it lets it go).
    deinit {
        if isObserved { dropObservation() }
        if let context = link?.context, context.objectWillGo(self) { return }
        let slots = slots
        for position in slots.indices { slots[position] = .value(.null) }
    }

    /// An object of the base class whose slots are the decoded `run`: what
    /// ``init(_:)`` makes of such a creation, without making one (a fetch makes an object
    /// per row).
    init(schema: EntitySchema, id: ObjectID, link: ContextLink, run: SlotRange) {
        self.schema = schema
        objectID = id
        self.link = link
        flags = .unfired
        slotBlock = run.block
        slotOffset = run.offset
    }

    /// The object's entity.
    public var entity: Entity { schema.entity }

    /// The context the object lives in (`nil` once it is removed from it, or the context is
    /// gone). An observed object that leaves its context tells its observers and lets go of
    /// its registrar, which the context kept.
    public internal(set) var context: ManagedContext? {
        get { link?.context }
        set {
            let newLink = newValue?.link
            if isObserved, newLink !== link {
                observedChangeOfAll()
                dropObservation()
            }
            link = newLink
        }
    }

    /// Whether the object was inserted and not saved yet.
    public var isInserted: Bool { insertedFlag && !deletedFlag }
    /// Whether the object was deleted and the deletion not saved yet.
    public var isDeleted: Bool { deletedFlag }
    /// Whether the object is a fault: its values are not loaded yet, or it came back from a
    /// fetch that returns faults (``FetchRequest/returnsObjectsAsFaults``, the default) and none
    /// of its properties has been used since — whether or not its values were read with the
    /// row. Reading or setting a property fires the fault; asking this does not.
    public var isFault: Bool { !flags.isDisjoint(with: .anyFault) }
    /// Whether the object has unsaved changes (inserted, deleted, or changed values).
    public var isUpdated: Bool {
        !insertedFlag && !deletedFlag && hasChangedValues
    }
    /// Whether the object has any unsaved change.
    public var hasChanges: Bool { insertedFlag || deletedFlag || hasChangedValues }

    // MARK: - Lifecycle hooks (override in subclasses)

    /// Called once after the object is inserted; set initial values here.
    open func awakeFromInsert() {}
    /// Called after the object's values are loaded from a store.
    open func awakeFromFetch() {}
    /// Called before the object is saved; changes made here are saved too.
    open func willSave() {}
    /// Called after the object was saved.
    open func didSave() {}
    /// Called when the object is deleted, before delete rules run.
    open func prepareForDeletion() {}
    /// Called before the object turns into a fault (``ManagedContext/refresh(_:mergeChanges:)``
    /// without merging, ``ManagedContext/refreshAllObjects()``): its values are still there.
    open func willTurnIntoFault() {}
    /// Called after the object turned into a fault: its values are let go.
    open func didTurnIntoFault() {}

    // MARK: - Validation (override in subclasses; see ManagedObject+Validation.swift)

    /// Checks `value` for the property `key` against the model's rules, and coerces it to the
    /// attribute's type; throws a ``ValidationError`` naming every rule it breaks. Save calls it
    /// (through ``validateForInsert()`` and ``validateForUpdate()``) for every attribute, with
    /// its value, and every to-one relationship, with its object's ID (``Value/objectID(_:)``,
    /// or ``Value/null`` when it holds none); to-many relationships go to
    /// ``validateObjects(_:forKey:)``.
    ///
    /// Override it to add rules for a property (Core Data's `validate<Key>(_:)` methods, which
    /// Swift on Linux cannot look up by name), and call `super` to keep the model's rules. What
    /// the override leaves in `value` is what a direct caller gets back; at save it is not
    /// stored (set the property to keep it), as in Core Data.
    ///
    /// ```swift
    /// override func validateValue(_ value: inout Value, forKey key: String) throws {
    ///     try super.validateValue(&value, forKey: key)
    ///     if key == "email", case .string(let email) = value, !email.contains("@") {
    ///         throw validationError("is not an email address", forKey: key, value: value)
    ///     }
    /// }
    /// var proposed: Value = "ada"
    /// try student.validateValue(&proposed, forKey: "email")  // throws: not an email address
    /// ```
    /// - Throws: ``ValidationError``; ``ObjectGraphError`` when `key` is not an attribute or
    ///   to-one relationship of the entity, or `value` cannot be converted to its type.
    open func validateValue(_ value: inout Value, forKey key: String) throws {
        try validateValueAgainstModel(&value, forKey: key)
    }
    /// Checks the objects of the to-many relationship `key` against the model's rules (required,
    /// minimum and maximum count; objects being deleted do not count). Save calls it for every
    /// to-many relationship that is loaded or has count rules (one not loaded since it was read
    /// and without rules cannot have changed). Override it to add rules; call `super` to keep
    /// the model's.
    /// - Throws: ``ValidationError``; ``ObjectGraphError`` when `key` is not a to-many
    ///   relationship of the entity.
    open func validateObjects(_ objects: [ManagedObject], forKey key: String) throws {
        try validateObjectsAgainstModel(objects, forKey: key)
    }
    /// Checks the whole object as an insert: every property in turn, through
    /// ``validateValue(_:forKey:)`` and ``validateObjects(_:forKey:)`` (transient properties
    /// too: Core Data validates them). Save calls it for every inserted object. Override it for rules across
    /// properties; call `super` to keep the property rules, and combine its error with yours
    /// (``combiningValidationErrors(_:)``).
    /// - Throws: ``ValidationError`` with every problem found.
    open func validateForInsert() throws {
        try validatePropertiesAgainstModel()
    }
    /// Checks the whole object as an update: every property in turn, as
    /// ``validateForInsert()`` does. Save calls it for every updated object. Override it for
    /// rules across properties; call `super` to keep the property rules.
    /// - Throws: ``ValidationError`` with every problem found.
    open func validateForUpdate() throws {
        try validatePropertiesAgainstModel()
    }
    /// Checks whether the object can be deleted: no relationship with the delete rule Deny may
    /// still hold an object (that is not itself being deleted). Save calls it for every deleted
    /// object. Override it to add rules; call `super` to keep the Deny rules.
    /// - Throws: ``ValidationError`` with a ``ValidationError/Problem/Rule/deleteDenied``
    ///   problem per such relationship.
    open func validateForDelete() throws {
        try validateDeleteRules()
    }

    // MARK: - Reading

    /// The value of the attribute `key`, or ``Value/null`` when it is nil or not an attribute.
    public final subscript(key: String) -> Value {
        readableValue(for: key) ?? .null
    }

    /// The value of the attribute `key` as a Swift type; `nil` when nil, not convertible, or
    /// not an attribute.
    @inlinable
    public final subscript<T: ValueConvertible>(key: String) -> T? {
        // Inlinable, so that callers convert with their concrete type's `init(value:)`.
        guard let value = readableValue(for: key) else { return nil }
        return T(value: value)
    }

    /// The value of the attribute `key` for the subscripts: `nil` when `key` is not an
    /// attribute or the object's values cannot be loaded (``value(for:)`` throws then).
    @usableFromInline
    func readableValue(for key: String) -> Value? {
        checkQueue("property read")
        guard let position = try? schema.position(of: key) else { return nil }
        if !flags.isDisjoint(with: .anyFault) {
            do { try fulfill() } catch { return nil }
        }
        guard case .value(let value) = slots[position] else { return nil }
        return value
    }

    /// The value of the attribute `key`.
    /// - Throws: ``ObjectGraphError`` when `key` is not an attribute of the entity, or the
    ///   object's values cannot be loaded.
    public final func value(for key: String) throws -> Value {
        let position = try schema.position(of: key)
        try fulfill()
        guard case .value(let value) = slots[position] else {
            throw ObjectGraphError.wrongPropertyKind(
                entity: schema.name, property: key, expected: "an attribute")
        }
        return value
    }

    /// The object of the to-one relationship `key`.
    public final func object(for key: String) throws -> ManagedObject? {
        let position = try relationshipPosition(key, toMany: false)
        try fulfill()
        if isDetachedByDeletion(at: position) { return nil }
        return try resolvedToOne(at: position)
    }

    /// The objects of the to-many relationship `key`, in order (ordered relationships keep
    /// their order; unordered ones are in insertion order).
    public final func objects(for key: String) throws -> [ManagedObject] {
        let position = try relationshipPosition(key, toMany: true)
        try fulfill()
        if isDetachedByDeletion(at: position) { return [] }
        return try resolvedToMany(at: position)
    }

    /// Whether the relationship `key` is a fault: its objects are not loaded yet (reading it
    /// loads them). True for every relationship of an object that is a fault.
    /// - Throws: ``ObjectGraphError`` when `key` is not a relationship of the entity.
    public final func hasFault(forRelationshipNamed key: String) throws -> Bool {
        let position = try anyRelationshipPosition(key)
        if state == .fault { return true }
        switch slots[position] {
        case .toOneFault, .toOneFaultID, .toManyFault: return true
        case .value, .toOne, .toMany: return false
        }
    }

    /// The IDs of the objects of the relationship `key`, in order, without loading those
    /// objects (a to-many relationship not loaded yet is asked of the store for IDs only).
    ///
    /// ```swift
    /// let memberIDs = try team.objectIDs(forRelationshipNamed: "members")
    /// ```
    /// - Throws: ``ObjectGraphError`` when `key` is not a relationship of the entity, or the
    ///   object's values cannot be loaded.
    public final func objectIDs(forRelationshipNamed key: String) throws -> [ObjectID] {
        let position = try anyRelationshipPosition(key)
        try fulfill()
        if isDetachedByDeletion(at: position) { return [] }
        switch slots[position] {
        case .toOne, .toOneFault, .toOneFaultID:
            return slots[position].toOneTarget.map { [$0] } ?? []
        case .toMany(let objects): return objects.map(\.objectID)
        case .toManyFault(let ids?): return ids
        case .toManyFault(nil):
            guard let context else { throw ObjectGraphError.objectIsGone(objectID) }
            // Kept as the fault's IDs: the next read (of IDs or objects) asks no more.
            let ids = try context.relatedIDs(of: self, position: position)
            slots[position] = .toManyFault(ids)
            fillCommittedFault(at: position, with: ids)
            return ids
        case .value: return []
        }
    }

    /// The position of the relationship `key`, to-one or to-many.
    private func anyRelationshipPosition(_ key: String) throws -> Int {
        let position = try schema.position(of: key)
        guard case .relationship = schema.properties[position] else {
            throw ObjectGraphError.wrongPropertyKind(
                entity: schema.name, property: key, expected: "a relationship")
        }
        return position
    }

    /// Whether the relationship at `position` reads as empty because the object is deleted and
    /// the relationship's delete rule (nullify or cascade) detached it from its objects.
    func isDetachedByDeletion(at position: Int) -> Bool {
        guard deletedFlag, case .relationship(let relationship) = schema.properties[position]
        else { return false }
        switch relationship.relationship.deleteRule {
        case .nullify, .cascade: return true
        case .deny, .noAction: return false
        }
    }

    // MARK: - Writing

    /// Sets the attribute `key`. `nil` clears it.
    /// - Throws: ``ObjectGraphError`` naming entity and property when `key` is not an
    ///   attribute or the value does not fit its type.
    public final func set(_ value: (any ValueConvertible)?, for key: String) throws {
        try requireContext(for: key).setAttribute(self, key: key, value: value?.asValue ?? .null)
    }

    /// Sets the to-one relationship `key` to `object` (or clears it), updating the inverse.
    public final func setObject(_ object: ManagedObject?, for key: String) throws {
        try requireContext(for: key).setToOne(self, key: key, target: object)
    }

    /// Replaces the objects of the to-many relationship `key`, updating inverses.
    public final func setObjects(_ objects: [ManagedObject], for key: String) throws {
        try requireContext(for: key).setToMany(self, key: key, targets: objects)
    }

    /// Adds `object` to the to-many relationship `key` (at the end, or at `index` of an ordered
    /// relationship), updating the inverse.
    public final func add(_ object: ManagedObject, to key: String, at index: Int? = nil) throws {
        try requireContext(for: key).addToMany(self, key: key, target: object, at: index)
    }

    /// Removes `object` from the to-many relationship `key`, updating the inverse.
    public final func remove(_ object: ManagedObject, from key: String) throws {
        try requireContext(for: key).removeFromMany(self, key: key, target: object)
    }

    // MARK: - Internals

    func requireContext(for key: String) throws -> ManagedContext {
        guard let context else {
            throw ObjectGraphError.foreignObject(entity: schema.name, property: key)
        }
        context.checkQueue("property write")
        return context
    }

    func relationshipPosition(_ key: String, toMany: Bool) throws -> Int {
        let position = try schema.position(of: key)
        guard case .relationship(let relationship) = schema.properties[position],
            relationship.isToMany == toMany
        else {
            throw ObjectGraphError.wrongPropertyKind(
                entity: schema.name, property: key,
                expected: toMany ? "a to-many relationship" : "a to-one relationship")
        }
        return position
    }

    /// Fires the fault: loads the values of a fault that has none, and makes the object no
    /// longer a fault.
    func fulfill() throws {
        checkQueue("property read")
        guard !flags.isDisjoint(with: .anyFault) else { return }
        if state == .fault {
            guard let context else { throw ObjectGraphError.objectIsGone(objectID) }
            try context.fulfillFault(self)
        }
        flags.remove(.unfired)
    }

    func resolvedToOne(at position: Int) throws -> ManagedObject? {
        switch slots[position] {
        case .toOne(let object): return object
        case .toOneFault, .toOneFaultID:
            guard let id = slots[position].faultTarget else { return nil }
            guard let context else { throw ObjectGraphError.objectIsGone(objectID) }
            let object = try context.object(with: id)
            slots[position] = .toOne(object)
            return object
        default: return nil
        }
    }

    func resolvedToMany(at position: Int) throws -> [ManagedObject] {
        switch slots[position] {
        case .toMany(let objects): return objects
        case .toManyFault(let known):
            guard let context else { throw ObjectGraphError.objectIsGone(objectID) }
            let ids = try known ?? context.relatedIDs(of: self, position: position)
            let objects = try ids.map { try context.object(with: $0) }
            slots[position] = .toMany(objects)
            if known == nil { fillCommittedFault(at: position, with: ids) }
            return objects
        default: return []
        }
    }
}

extension ManagedObject: CustomStringConvertible {
    /// `<Entity x-coredata://…>` with the values when loaded.
    public var description: String {
        guard !isFault else { return "<\(schema.name) \(objectID) fault>" }
        var parts: [String] = []
        for position in schema.attributePositions {
            if case .value(let value) = slots[position], value != .null {
                parts.append("\(schema.properties[position].name)=\(value)")
            }
        }
        return "<\(schema.name) \(objectID) \(parts.joined(separator: " "))>"
    }
}

/// Managed objects belong to their context's isolation domain: handing one to another thread
/// is a compile-time error in Swift 6 mode, not a data race. Pass its ``ManagedObject/objectID``
/// and look it up in a context of that thread.
@available(*, unavailable, message: "pass the object's objectID to another thread instead")
extension ManagedObject: Sendable {}
