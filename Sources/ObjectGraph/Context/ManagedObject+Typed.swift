import Foundation

/// Typed, non-throwing access by ``TypedProperty``: what generated classes' properties call.
///
/// Reads give `nil` (or the caller's default) for a value that is nil, of another type, or
/// cannot be loaded. Writes never throw and never trap: a write the object cannot take (an
/// object of another context or of the wrong entity, a value the attribute's type does not
/// hold) is kept by the context and reported, naming the object and the property, by
/// ``validateForInsert()``/``validateForUpdate()`` and by the next ``ManagedContext/save()``
/// (rule ``ValidationError/Problem/Rule/rejectedWrite``), until the property is written again
/// successfully or the context rolls back. An object no longer in a context takes no write.
///
/// ```swift
/// student.name = "Ada"                  // setAttributeValue("Ada", StudentProperties.name)
/// course.students.insert(ada)           // RelatedSet, written through to the relationship
/// student.advisor = teacherOfOtherContext
/// try context.save()                    // throws: Student.advisor … another context
/// ```
extension ManagedObject {
    // MARK: - Attributes

    /// The attribute's value as `T`; `nil` when it is nil, not a `T`, or cannot be loaded.
    @inlinable
    public func attributeValue<T: ValueConvertible>(_ property: TypedProperty) -> T? {
        // Converted from the slot in place: the caller's `T` reads it without a copy of the
        // value to return and destroy.
        guard let slot = typedAttributeSlot(property), case .value(let value) = slot.pointee
        else { return nil }
        return T(value: value)
    }

    /// The attribute's value as `T`, or `absent` when it has none (a required attribute not
    /// set yet, which the next save reports as missing).
    @inlinable
    public func attributeValue<T: ValueConvertible>(_ property: TypedProperty, default absent: T)
        -> T
    {
        guard let slot = typedAttributeSlot(property), case .value(let value) = slot.pointee
        else { return absent }
        return T(value: value) ?? absent
    }

    /// Sets the attribute (`nil` clears it); a value its type does not hold is recorded as a
    /// rejected write (see above).
    @inlinable
    public func setAttributeValue<T: ValueConvertible>(_ value: T?, _ property: TypedProperty) {
        setTypedAttribute(value?.asValue ?? .null, property)
    }

    /// The attribute's value as `T`; `nil` when it is nil, not a `T`, or cannot be loaded
    /// (what a generated class's attribute reads: see ``TypedAttribute``).
    @inlinable
    public func attributeValue<T: ValueConvertible>(_ attribute: borrowing TypedAttribute) -> T? {
        guard let slot = typedAttributeSlot(attribute), case .value(let value) = slot.pointee
        else { return nil }
        return T(value: value)
    }

    /// The attribute's value as `T`, or `absent` when it has none (a required attribute not
    /// set yet, which the next save reports as missing).
    @inlinable
    public func attributeValue<T: ValueConvertible>(
        _ attribute: borrowing TypedAttribute, default absent: T
    ) -> T {
        guard let slot = typedAttributeSlot(attribute), case .value(let value) = slot.pointee
        else { return absent }
        return T(value: value) ?? absent
    }

    /// Sets the attribute (`nil` clears it); a value its type does not hold is recorded as a
    /// rejected write (see above).
    @inlinable
    public func setAttributeValue<T: ValueConvertible>(
        _ value: T?, _ attribute: borrowing TypedAttribute
    ) {
        setTypedAttribute(value?.asValue ?? .null, attribute)
    }

    /// The `Codable` value of the Transformable attribute (see ``codable(_:for:)``); `nil`
    /// when it is nil or cannot be decoded as `T`.
    public func codableValue<T: Codable & Sendable>(_ property: TypedProperty, as type: T.Type)
        -> T?
    {
        try? codable(type, for: property.name)
    }

    /// The `Codable` value of the Transformable attribute (as for a ``TypedProperty``).
    public func codableValue<T: Codable & Sendable>(
        _ attribute: borrowing TypedAttribute, as type: T.Type
    ) -> T? {
        try? codable(type, for: attribute.name)
    }

    /// Stores a `Codable` value in the Transformable attribute (as for a ``TypedProperty``).
    public func setCodableValue<T: Codable & Sendable>(
        _ value: T?, _ attribute: borrowing TypedAttribute
    ) {
        setCodableValue(value, named: attribute.name)
    }

    /// Stores a `Codable` value in the Transformable attribute (see ``setCodable(_:for:)``); a
    /// value that cannot be encoded is recorded as a rejected write.
    public func setCodableValue<T: Codable & Sendable>(_ value: T?, _ property: TypedProperty) {
        setCodableValue(value, named: property.name)
    }

    private func setCodableValue<T: Codable & Sendable>(_ value: T?, named name: String) {
        do {
            try setCodable(value, for: name)
            clearRejectedWrite(name)
        } catch {
            rejectWrite(name, value: .string(String(describing: value)), error: error)
        }
    }

    /// The slot of the property, its object loaded and the read registered with Observation;
    /// `nil` when the entity has no such property or the object cannot be loaded. Valid while
    /// the object lives and holds its values: read it at once.
    @usableFromInline
    func typedAttributeSlot(_ property: TypedProperty) -> UnsafePointer<Slot>? {
        checkQueue("property read")
        return observedSlot(at: property.position(in: schema))
    }

    /// The slot of the attribute (as for a ``TypedProperty``). Inlined into the generated
    /// class's getter: a call, its registers saved and restored, was a tenth of a typed read.
    @inlinable @inline(__always)
    func typedAttributeSlot(_ attribute: borrowing TypedAttribute) -> UnsafePointer<Slot>? {
        #if DEBUG
            checkQueue("property read")
        #endif
        guard let position = attribute.position(in: schema) else { return nil }
        observationAccess(position)
        if !flags.isDisjoint(with: .anyFault), !fulfilledForRead() { return nil }
        // The cache gives a position of the object's own schema; the test keeps a wrong one
        // from ever reading outside the slots.
        guard position < schema.slotCount else { return nil }
        return UnsafePointer(slotBlock.start + Int(slotOffset) + position)
    }

    /// The slot at `position` (`nil`: the entity has no such property), the object loaded and
    /// the read registered with Observation.
    @inline(__always)
    private func observedSlot(at position: Int?) -> UnsafePointer<Slot>? {
        guard let position else { return nil }
        observationAccess(position)
        if isFault, !fulfilledForRead() { return nil }
        // The cache gives a position of the object's own schema; the test keeps a wrong one
        // from ever reading outside the slots.
        let slots = slots
        guard position < slots.count else { return nil }
        return UnsafePointer(slots.start + position)
    }

    /// Loads the fault for a typed read: whether it could.
    @usableFromInline @inline(never)
    func fulfilledForRead() -> Bool {
        do {
            try fulfill()
            return true
        } catch {
            return false
        }
    }

    @usableFromInline
    func setTypedAttribute(_ value: Value, _ property: TypedProperty) {
        guard let context else { return }
        context.checkQueue("property write")
        setTypedAttribute(value, at: property.position(in: schema), property.name, context)
    }

    @usableFromInline
    func setTypedAttribute(_ value: Value, _ attribute: borrowing TypedAttribute) {
        guard let context else { return }
        context.checkQueue("property write")
        setTypedAttribute(value, at: attribute.position(in: schema), attribute.name, context)
    }

    /// Sets the attribute `name` at `position` (`nil`: the entity has no such property).
    @inline(__always)
    private func setTypedAttribute(
        _ value: Value, at position: Int?, _ name: String, _ context: ManagedContext
    ) {
        guard let position, let type = schema.attributeTypes[position] else {
            let error =
                (try? schema.position(of: name)) == nil
                ? ObjectGraphError.unknownProperty(entity: schema.name, property: name)
                : ObjectGraphError.wrongPropertyKind(
                    entity: schema.name, property: name, expected: "an attribute")
            return rejectWrite(name, value: value, error: error)
        }
        do {
            let coerced = try type.coerce(value, entity: schema.name, property: name)
            try fulfill()
            if !context.rejectedWrites.isEmpty { clearRejectedWrite(name) }
            if case .value(let current) = slots[position], current == coerced { return }
            context.setSlot(self, position, .value(coerced))
        } catch {
            rejectWrite(name, value: value, error: error)
        }
    }

    // MARK: - To-one relationships

    /// The object of the to-one relationship as `T`; `nil` when it holds none or it cannot be
    /// loaded.
    public func relatedObject<T: ManagedObject>(_ property: TypedProperty, as type: T.Type) -> T? {
        guard let position = property.position(in: schema), schema.kinds[position] == .toOne
        else { return nil }
        observationAccess(position)
        do {
            try fulfill()
            if isDetachedByDeletion(at: position) { return nil }
            return try resolvedToOne(at: position) as? T
        } catch {
            return nil
        }
    }

    /// Sets the to-one relationship (`nil` clears it), updating the inverse; an object it
    /// cannot hold is recorded as a rejected write.
    public func setRelatedObject(_ object: ManagedObject?, _ property: TypedProperty) {
        attemptWrite(property, value: object.map { .objectID($0.objectID) } ?? .null) {
            try $0.setToOne(self, key: property.name, target: object)
        }
    }

    // MARK: - To-many relationships

    /// The objects of the to-many relationship that are `T`s, in order; empty when it cannot
    /// be loaded.
    public func relatedObjects<T: ManagedObject>(_ property: TypedProperty, as type: T.Type)
        -> [T]
    {
        guard let position = property.position(in: schema), schema.kinds[position] == .toMany
        else { return [] }
        observationAccess(position)
        do {
            try fulfill()
            if isDetachedByDeletion(at: position) { return [] }
            let objects = try resolvedToMany(at: position)
            if let typed = objects as? [T] { return typed }
            return objects.compactMap { $0 as? T }
        } catch {
            return []
        }
    }

    /// Adds `object` to the to-many relationship (at the end, or at `index` of an ordered
    /// one), updating the inverse; an object it cannot hold is recorded as a rejected write.
    public func addRelatedObject(
        _ object: ManagedObject, _ property: TypedProperty, at index: Int? = nil
    ) {
        attemptWrite(property, value: .objectID(object.objectID)) {
            try $0.addToMany(self, key: property.name, target: object, at: index)
        }
    }

    /// Removes `object` from the to-many relationship, updating the inverse.
    public func removeRelatedObject(_ object: ManagedObject, _ property: TypedProperty) {
        attemptWrite(property, value: .objectID(object.objectID)) {
            try $0.removeFromMany(self, key: property.name, target: object)
        }
    }

    /// Removes the object at `index` of the ordered to-many relationship; an index out of
    /// range is recorded as a rejected write.
    public func removeRelatedObject(at index: Int, _ property: TypedProperty) {
        let members = relatedObjects(property, as: ManagedObject.self)
        guard members.indices.contains(index) else {
            return rejectWrite(
                property.name, value: .integer(Int64(index)),
                error: ObjectGraphError.unsupported(
                    "index \(index) is out of range (the relationship holds \(members.count))"))
        }
        removeRelatedObject(members[index], property)
    }

    /// Replaces the objects of the to-many relationship (in this order, for an ordered one),
    /// updating inverses; objects it cannot hold are recorded as a rejected write.
    public func setRelatedObjects(_ objects: [ManagedObject], _ property: TypedProperty) {
        attemptWrite(property, value: .null) {
            try $0.setToMany(self, key: property.name, targets: objects)
        }
    }

    /// Sets a to-many relationship from a generated property's new value: nothing to do when
    /// it is the live view of this very relationship (its edits were written already).
    public func setRelatedSet<T: ManagedObject>(_ set: RelatedSet<T>, _ property: TypedProperty) {
        if set.isLiveView(of: self, property) { return }
        setRelatedObjects(Array(set), property)
    }

    /// Sets an ordered to-many relationship from a generated property's new value (see
    /// ``setRelatedSet(_:_:)``).
    public func setRelatedList<T: ManagedObject>(_ list: RelatedList<T>, _ property: TypedProperty)
    {
        if list.isLiveView(of: self, property) { return }
        setRelatedObjects(Array(list), property)
    }

    // MARK: - Rejected writes

    /// Runs `write` with the object's context; records what it throws as a rejected write of
    /// `property`, and clears an earlier one when it succeeds.
    private func attemptWrite(
        _ property: TypedProperty, value: Value, _ write: (ManagedContext) throws -> Void
    ) {
        guard let context else { return }
        context.checkQueue("property write")
        do {
            try write(context)
            clearRejectedWrite(property.name)
        } catch {
            rejectWrite(property.name, value: value, error: error)
        }
    }

    /// Keeps the write of `key` the object could not take, for validation to report.
    func rejectWrite(_ key: String, value: Value, error: any Error) {
        context?.rejectedWrites.record(self, key: key, value: value, reason: "\(error)")
    }

    private func clearRejectedWrite(_ key: String) {
        guard let context, !context.rejectedWrites.isEmpty else { return }
        context.rejectedWrites.clear(self, key: key)
    }
}
