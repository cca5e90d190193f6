extension MappingModel {
    /// What the mapping changes, one line per change, for a dry run.
    ///
    /// For an inferred mapping: `add entity Pet`, `remove entity Pet`,
    /// `rename entity Car → Automobile`, `Mood: add attribute rating (Integer 16, default 0)`,
    /// `Person: remove attribute age`, `Car: rename color → paintColor`,
    /// `Country: rename GeographicRegion.countries → countries` (a property declared on an
    /// ancestor in the source and on the entity itself in the destination),
    /// `Person.name: optional → required (default "")`, `Person.age: type Integer 16 → Integer 32`,
    /// `Team.members: to-one → to-many`, `Person: add uniqueness constraint (email)`; an
    /// unchanged entity has no line.
    ///
    /// For a mapping read from a file: one line per entity mapping
    /// (`PersonToPerson: transform Person → Person`, with its filter, source expression and
    /// policy) and one per property mapping with its expression
    /// (`PersonToPerson.fullName = $source.name`).
    ///
    /// ```swift
    /// for line in try MappingModel.inferred(from: v1, to: v2).changeDescriptions { print(line) }
    /// ```
    public var changeDescriptions: [String] {
        if isInferred { return InferredChangeDescriber(self).lines() }
        var lines: [String] = []
        for entityMapping in entityMappings {
            lines.append(Self.header(of: entityMapping))
            for property in entityMapping.attributeMappings + entityMapping.relationshipMappings {
                let value = property.valueExpression.map { "\($0)" } ?? "(default value)"
                lines.append("\(entityMapping.name).\(property.name) = \(value)")
            }
        }
        return lines
    }

    /// `PersonToPerson: transform Person → Person where age > 0 (policy MyPolicy)`.
    private static func header(of mapping: EntityMapping) -> String {
        let source = mapping.sourceEntityName ?? "none"
        let destination = mapping.destinationEntityName ?? "none"
        var line: String
        switch mapping.kind {
        case .add: line = "\(mapping.name): add entity \(destination)"
        case .remove: line = "\(mapping.name): remove entity \(source)"
        default: line = "\(mapping.name): \(mapping.kind.rawValue) \(source) → \(destination)"
        }
        if let expression = mapping.sourceExpression { line += " from \(expression)" }
        if let filter = mapping.filterPredicate { line += " where \(filter)" }
        if let policy = mapping.migrationPolicyClassName { line += " (policy \(policy))" }
        return line
    }
}
