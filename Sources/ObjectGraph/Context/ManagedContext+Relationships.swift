/// Setting attributes and relationships, with the inverse side kept in step immediately.
extension ManagedContext {
    func setAttribute(_ object: ManagedObject, key: String, value: Value) throws {
        let position = try object.schema.position(of: key)
        guard let type = object.schema.attributeTypes[position] else {
            throw ObjectGraphError.wrongPropertyKind(
                entity: object.schema.name, property: key, expected: "an attribute")
        }
        let coerced = try type.coerce(value, entity: object.schema.name, property: key)
        try object.fulfill()
        if case .value(let current) = object.slots[position], current == coerced { return }
        setSlot(object, position, .value(coerced))
    }

    func setToOne(_ object: ManagedObject, key: String, target: ManagedObject?) throws {
        let position = try object.relationshipPosition(key, toMany: false)
        let relationship = try checkedRelationship(object, position, target: target)
        try object.fulfill()
        try target?.fulfill()
        let old = try object.resolvedToOne(at: position)
        if old === target { return }
        if let old { try detach(object, from: old, relationship: relationship) }
        if let target { try attach(object, to: target, relationship: relationship) }
        setSlot(object, position, .toOne(target))
    }

    func addToMany(_ object: ManagedObject, key: String, target: ManagedObject, at index: Int?)
        throws
    {
        let position = try object.relationshipPosition(key, toMany: true)
        let relationship = try checkedRelationship(object, position, target: target)
        try object.fulfill()
        try target.fulfill()
        var list = try object.resolvedToMany(at: position)
        if list.contains(where: { $0 === target }) { return }
        try attach(object, to: target, relationship: relationship)
        // A self-inverse relationship adding the object to itself was just updated by
        // `attach`: keep it once.
        let current = try object.resolvedToMany(at: position)
        let at = relationship.relationship.isOrdered ? index : nil
        guard current.contains(where: { $0 === target }) else {
            insertIntoToMany(object, position, target, at: at)
            return
        }
        list = current.filter { $0 !== target }
        list.insert(target, at: min(max(at ?? list.count, 0), list.count))
        setSlot(object, position, .toMany(list))
    }

    func removeFromMany(_ object: ManagedObject, key: String, target: ManagedObject) throws {
        let position = try object.relationshipPosition(key, toMany: true)
        let relationship = try checkedRelationship(object, position, target: target)
        try object.fulfill()
        let list = try object.resolvedToMany(at: position)
        guard list.contains(where: { $0 === target }) else { return }
        try detach(object, from: target, relationship: relationship)
        removeFromToMany(object, position, target)
    }

    func setToMany(_ object: ManagedObject, key: String, targets: [ManagedObject]) throws {
        let position = try object.relationshipPosition(key, toMany: true)
        let relationship = try checkedRelationship(object, position, target: nil)
        for target in targets {
            _ = try checkedRelationship(object, position, target: target)
        }
        try object.fulfill()
        var unique: [ManagedObject] = []
        for target in targets where !unique.contains(where: { $0 === target }) {
            unique.append(target)
        }
        for old in try object.resolvedToMany(at: position)
        where !unique.contains(where: { $0 === old }) {
            try removeFromMany(object, key: relationship.relationship.name, target: old)
        }
        for target in unique {
            try addToMany(object, key: relationship.relationship.name, target: target, at: nil)
        }
        if relationship.relationship.isOrdered,
            try object.resolvedToMany(at: position).map(ObjectIdentifier.init)
                != unique.map(ObjectIdentifier.init)
        {
            setSlot(object, position, .toMany(unique))
        }
    }

    // MARK: - Checks

    private func checkedRelationship(
        _ object: ManagedObject, _ position: Int, target: ManagedObject?
    ) throws -> RelationshipSchema {
        guard case .relationship(let relationship) = object.schema.properties[position] else {
            throw ObjectGraphError.wrongPropertyKind(
                entity: object.schema.name, property: object.schema.properties[position].name,
                expected: "a relationship")
        }
        guard let target else { return relationship }
        let name = relationship.relationship.name
        guard target.context === self, object.context === self else {
            throw ObjectGraphError.foreignObject(entity: object.schema.name, property: name)
        }
        if let destination = relationship.destinationIndex,
            !schema.entity(target.schema, isKindOf: schema.entities[destination])
        {
            throw ObjectGraphError.wrongDestination(
                entity: object.schema.name, property: name,
                expected: relationship.relationship.destinationEntityName, got: target.schema.name)
        }
        return relationship
    }

    // MARK: - Inverse maintenance

    /// The position of the inverse of `relationship` in `target`'s entity, if it has one.
    private func inversePosition(of relationship: RelationshipSchema, in target: ManagedObject)
        -> Int?
    {
        guard let name = relationship.inverseName,
            let position = try? target.schema.position(of: name),
            target.schema.kinds[position] != .attribute
        else { return nil }
        return position
    }

    /// Removes `source` from the inverse side held by `target`.
    func detach(
        _ source: ManagedObject, from target: ManagedObject, relationship: RelationshipSchema
    )
        throws
    {
        guard let position = inversePosition(of: relationship, in: target) else { return }
        try target.fulfill()
        guard case .relationship(let inverse) = target.schema.properties[position] else { return }
        if inverse.isToMany {
            _ = try target.resolvedToMany(at: position)
            removeFromToMany(target, position, source)
        } else if try target.resolvedToOne(at: position) === source {
            setSlot(target, position, .toOne(nil))
        }
    }

    /// Makes `target`'s inverse side point back at `source`, taking `target` away from the
    /// object it pointed back at before (moving it between owners).
    func attach(_ source: ManagedObject, to target: ManagedObject, relationship: RelationshipSchema)
        throws
    {
        guard let position = inversePosition(of: relationship, in: target) else { return }
        try target.fulfill()
        guard case .relationship(let inverse) = target.schema.properties[position] else { return }
        if inverse.isToMany {
            if !(try target.resolvedToMany(at: position)).contains(where: { $0 === source }) {
                insertIntoToMany(target, position, source, at: nil)
            }
            return
        }
        let previous = try target.resolvedToOne(at: position)
        if previous === source { return }
        if let previous {
            try previous.fulfill()
            let forward = relationship.relationship.name
            if let forwardPosition = previous.schema.positionByName[forward] {
                if relationship.isToMany {
                    _ = try previous.resolvedToMany(at: forwardPosition)
                    removeFromToMany(previous, forwardPosition, target)
                } else if try previous.resolvedToOne(at: forwardPosition) === target {
                    setSlot(previous, forwardPosition, .toOne(nil))
                }
            }
        }
        setSlot(target, position, .toOne(source))
    }
}
