/// Managed objects answer key lookups, so predicates evaluate against them directly: attributes
/// give their values, to-one relationships their object, to-many relationships a collection.
extension ManagedObject: KeyValueReadable {
    /// The value for `key`.
    /// - Throws: ``PredicateEvaluationError/unknownKey(_:in:)`` for a key the entity lacks.
    public func predicateValue(forKey key: String) throws -> EvaluationValue {
        guard let position = schema.positionByName[key] else {
            throw PredicateEvaluationError.unknownKey(key, in: schema.name)
        }
        try fulfill()
        switch slots[position] {
        case .value(let value):
            return .value(value)
        case .toOne, .toOneFault, .toOneFaultID:
            if isDetachedByDeletion(at: position) { return .null }
            return try resolvedToOne(at: position).map { .object($0) } ?? .null
        case .toMany, .toManyFault:
            if isDetachedByDeletion(at: position) { return .collection([]) }
            return .collection(try resolvedToMany(at: position).map { .object($0) })
        }
    }

    /// The object's ID.
    public var predicateObjectID: ObjectID? { objectID }
}

/// An object as it was last saved: what a fetch that ignores pending changes sees.
struct CommittedObjectView: KeyValueReadable {
    let object: ManagedObject

    func predicateValue(forKey key: String) throws -> EvaluationValue {
        guard let position = object.schema.positionByName[key] else {
            throw PredicateEvaluationError.unknownKey(key, in: object.schema.name)
        }
        try object.fulfill()
        guard let context = object.context, let committed = object.committedSlot(at: position)
        else {
            return try object.predicateValue(forKey: key)
        }
        switch committed {
        case .value(let value):
            return .value(value)
        case .toOne(let target):
            return target.map { .object(CommittedObjectView(object: $0)) } ?? .null
        case .toOneFault, .toOneFaultID:
            guard let id = committed.faultTarget else { return .null }
            return .object(CommittedObjectView(object: try context.object(with: id)))
        case .toMany(let targets):
            return .collection(targets.map { .object(CommittedObjectView(object: $0)) })
        case .toManyFault(let known):
            let ids = try known ?? context.relatedIDs(of: object, position: position)
            return .collection(
                try ids.map { .object(CommittedObjectView(object: try context.object(with: $0))) })
        }
    }

    var predicateObjectID: ObjectID? { object.objectID }
}
