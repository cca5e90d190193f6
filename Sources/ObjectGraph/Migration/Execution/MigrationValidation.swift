/// The manager's validation phase: every destination object's required attributes and
/// relationships hold a value, and the destination model's uniqueness constraints hold.
struct MigrationValidation {
    let manager: MigrationManager

    private var model: EntityModel { manager.mapping.destinationModel }

    /// - Throws: ``MigrationError/missingRequiredValues(entity:property:objects:)`` for the
    ///   first required property (in object order) that objects leave empty, naming all of
    ///   them; ``MigrationError/uniquenessViolated(entity:properties:objects:)``.
    func validate() throws(MigrationError) {
        try checkRequired()
        try checkUniqueness()
    }

    private struct Place: Hashable {
        let entity: String
        let property: String
    }

    private func checkRequired() throws(MigrationError) {
        var missing: [Place: [String]] = [:]
        var order: [Place] = []
        for object in manager.destinationObjects {
            let required = manager.destinationInfo(object.entityName)?.required ?? []
            for name in required where isEmpty(object.values[name]) {
                let place = Place(entity: object.entityName, property: name)
                if missing[place] == nil { order.append(place) }
                missing[place, default: []].append(object.reference)
            }
        }
        if let first = order.first {
            throw .missingRequiredValues(
                entity: first.entity, property: first.property, objects: missing[first] ?? [])
        }
    }

    private func isEmpty(_ value: MigrationObject.PropertyValue?) -> Bool {
        switch value {
        case .attribute(let v)?: return v.isNull
        case .toOne(let object)?: return object == nil
        case .toMany(let objects)?: return objects.isEmpty
        case nil: return true
        }
    }

    /// Each entity's constraints hold over its objects and its subentities' objects; a tuple
    /// with a nil is not compared (as SQLite's unique indexes do).
    private func checkUniqueness() throws(MigrationError) {
        let constrained = model.entities.filter { !$0.uniquenessConstraints.isEmpty }
        guard !constrained.isEmpty else { return }
        var byEntity: [String: [MigrationObject]] = [:]
        for object in manager.destinationObjects {
            byEntity[object.entityName, default: []].append(object)
        }
        var hierarchy = manager.hierarchy
        defer { manager.hierarchy = hierarchy }
        for entity in constrained {
            let family = hierarchy.family(of: entity.name, in: model, tag: "d")
            let objects = manager.destinationObjects.filter { family.contains($0.entityName) }
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
                var seen: [[Value]: [MigrationObject]] = [:]
                var duplicated: [[Value]] = []
                for object in objects {
                    guard let tuple = self.tuple(object, constraint) else { continue }
                    if seen[tuple]?.count == 1 { duplicated.append(tuple) }
                    seen[tuple, default: []].append(object)
                }
                if !duplicated.isEmpty {
                    throw .uniquenessViolated(
                        entity: entity.name, properties: constraint,
                        objects: duplicated.flatMap { seen[$0] ?? [] }.map(\.reference))
                }
            }
        }
    }

    /// The constraint's values of `object` (a to-one as its target's key), nil when one is nil.
    private func tuple(_ object: MigrationObject, _ constraint: [String]) -> [Value]? {
        var values: [Value] = []
        for name in constraint {
            switch object.values[name] {
            case .attribute(let value)? where !value.isNull: values.append(value)
            case .toOne(let target?)?: values.append(.string(target.reference))
            default: return nil
            }
        }
        return values
    }
}
