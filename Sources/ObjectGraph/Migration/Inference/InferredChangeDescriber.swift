/// The dry-run lines of an inferred mapping: one per change, entity by entity
/// (`add entity Pet`, `Mood: add attribute rating (Integer 16, default 0)`,
/// `Country: rename GeographicRegion.countries → countries`, `Person: remove attribute age`).
struct InferredChangeDescriber {
    let mapping: MappingModel
    private let destinationNameBySource: [String: String]

    init(_ mapping: MappingModel) {
        self.mapping = mapping
        var names: [String: String] = [:]
        for entityMapping in mapping.entityMappings {
            if let source = entityMapping.sourceEntityName,
                let destination = entityMapping.destinationEntityName
            {
                names[source] = destination
            }
        }
        destinationNameBySource = names
    }

    /// Every line, in the order of the entity mappings.
    func lines() -> [String] {
        var lines: [String] = []
        for entityMapping in mapping.entityMappings {
            switch entityMapping.kind {
            case .add:
                lines.append(
                    "add entity \(entityMapping.destinationEntityName ?? entityMapping.name)")
            case .remove:
                lines.append(
                    "remove entity \(entityMapping.sourceEntityName ?? entityMapping.name)")
            default:
                guard
                    let source = entityMapping.sourceEntityName.flatMap({
                        mapping.sourceModel.entity(named: $0)
                    }),
                    let destination = entityMapping.destinationEntityName.flatMap({
                        mapping.destinationModel.entity(named: $0)
                    })
                else { continue }
                lines += entityLines(from: source, to: destination)
                lines += propertyLines(from: source, to: destination, entityMapping)
            }
        }
        return lines
    }

    private func entityLines(from old: Entity, to new: Entity) -> [String] {
        let name = new.name
        var lines: [String] = []
        if old.name != new.name { lines.append("rename entity \(old.name) → \(new.name)") }
        let oldParent = old.parentName.map { destinationNameBySource[$0] ?? $0 }
        if oldParent != new.parentName {
            lines.append(
                "\(name): parent \(old.parentName ?? "none") → \(new.parentName ?? "none")")
        }
        if old.isAbstract != new.isAbstract {
            lines.append(
                "\(name): \(new.isAbstract ? "concrete → abstract" : "abstract → concrete")")
        }
        if old.versionHashModifier != new.versionHashModifier {
            lines.append(
                "\(name): version hash modifier \(old.versionHashModifier ?? "none") → \(new.versionHashModifier ?? "none")"
            )
        }
        let listed = { (names: [String]) in "(\(names.joined(separator: ", ")))" }
        lines += Self.difference(
            old.uniquenessConstraints, new.uniquenessConstraints, in: name,
            what: { "uniqueness constraint \(listed($0))" })
        lines += Self.difference(
            old.fetchIndexes.map { [$0.name] + $0.elements.map(\.property) },
            new.fetchIndexes.map { [$0.name] + $0.elements.map(\.property) }, in: name,
            what: { "index \($0[0]) \(listed(Array($0.dropFirst())))" })
        lines += Self.difference(
            old.compoundIndexes, new.compoundIndexes, in: name,
            what: { "compound index \(listed($0))" })
        return lines
    }

    /// `remove …` for what only `old` has, then `add …` for what only `new` has.
    private static func difference(
        _ old: [[String]], _ new: [[String]], in entity: String, what: ([String]) -> String
    ) -> [String] {
        old.filter { !new.contains($0) }.map { "\(entity): remove \(what($0))" }
            + new.filter { !old.contains($0) }.map { "\(entity): add \(what($0))" }
    }

    private func propertyLines(from old: Entity, to new: Entity, _ entityMapping: EntityMapping)
        -> [String]
    {
        let sourceProperties = MigratedProperty.persistent(of: old, in: mapping.sourceModel)
        let sources = Dictionary(
            sourceProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let propertyMappings = entityMapping.attributeMappings + entityMapping.relationshipMappings
        let originByName = Dictionary(
            propertyMappings.map { ($0.name, $0.sourcePropertyName) },
            uniquingKeysWith: { first, _ in first })
        var used = Set<String>()
        var lines: [String] = []
        for property in MigratedProperty.persistent(of: new, in: mapping.destinationModel) {
            let origin = (originByName[property.name] ?? nil).flatMap { sources[$0] }
            if let origin { used.insert(origin.name) }
            if property.declaringEntity != new.name {
                if let origin, origin.declaringEntity == old.name {
                    lines.append(
                        "\(new.name): move \(origin.name) up to \(property.declaringEntity).\(property.name)"
                    )
                }
                continue
            }
            lines += self.lines(for: property, from: origin, oldEntity: old.name, in: new.name)
        }
        for origin in sourceProperties
        where origin.declaringEntity == old.name && !used.contains(origin.name) {
            lines.append("\(new.name): remove \(origin.kindName) \(origin.name)")
        }
        return lines
    }

    private func lines(
        for property: MigratedProperty, from origin: MigratedProperty?, oldEntity: String,
        in entity: String
    ) -> [String] {
        guard let origin else {
            switch property.kind {
            case .attribute(let attribute):
                return [
                    "\(entity): add attribute \(attribute.name) \(PropertyChangeDescriber.summary(of: attribute))"
                ]
            case .relationship(let relationship):
                return [
                    "\(entity): add relationship \(relationship.name) \(PropertyChangeDescriber.summary(of: relationship))"
                ]
            }
        }
        var lines: [String] = []
        if origin.name != property.name || origin.declaringEntity != oldEntity {
            let qualifier = origin.declaringEntity == oldEntity ? "" : "\(origin.declaringEntity)."
            lines.append("\(entity): rename \(qualifier)\(origin.name) → \(property.name)")
        }
        let describer = PropertyChangeDescriber(
            place: "\(entity).\(property.name)", destinationNameBySource: destinationNameBySource)
        switch (origin.kind, property.kind) {
        case (.attribute(let old), .attribute(let new)):
            lines += describer.lines(from: old, to: new)
        case (.relationship(let old), .relationship(let new)):
            lines += describer.lines(from: old, to: new)
        default: break
        }
        return lines
    }
}
