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
