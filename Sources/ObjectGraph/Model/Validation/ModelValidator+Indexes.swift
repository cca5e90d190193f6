extension ModelValidator {
    /// `unknown-constraint-property`, `invalid-constraint-property`, `unknown-index-property`,
    /// `invalid-index-property` and `empty-index`, for uniqueness constraints, fetch indexes and
    /// compound indexes. Inherited properties count.
    mutating func checkConstraintsAndIndexes(of entity: Entity) {
        for constraint in entity.uniquenessConstraints {
            let what = "uniqueness constraint (\(constraint.joined(separator: ", ")))"
            for name in constraint {
                checkIndexed(
                    name, of: entity, what: what, at: entity.location,
                    unknown: .unknownConstraintProperty, invalid: .invalidConstraintProperty)
            }
        }
        for index in entity.fetchIndexes {
            let location = index.location ?? entity.location
            let what = "fetch index '\(index.name)'"
            if index.elements.isEmpty {
                report(
                    .emptyIndex, "\(what) of entity '\(entity.name)' names no property",
                    at: location, entity: entity.name)
            }
            for element in index.elements {
                checkIndexed(
                    element.property, of: entity, what: what, at: location,
                    unknown: .unknownIndexProperty, invalid: .invalidIndexProperty)
            }
        }
        for index in entity.compoundIndexes {
            let what = "compound index (\(index.joined(separator: ", ")))"
            if index.isEmpty {
                report(
                    .emptyIndex, "a compound index of entity '\(entity.name)' names no property",
                    at: entity.location, entity: entity.name)
            }
            for name in index {
                checkIndexed(
                    name, of: entity, what: what, at: entity.location,
                    unknown: .unknownIndexProperty, invalid: .invalidIndexProperty)
            }
        }
    }

    /// Checks that `name` is a stored property a constraint or an index can use.
    private mutating func checkIndexed(
        _ name: String, of entity: Entity, what: String, at location: SourceLocation?,
        unknown: ValidationRule, invalid: ValidationRule
    ) {
        guard let property = inheritedProperty(named: name, in: entity) else {
            report(
                unknown,
                "\(what) of entity '\(entity.name)' names an unknown property '\(name)'",
                at: location, entity: entity.name, property: name)
            return
        }
        if let reason = property.unstorableReason {
            // An index only loses the element (Xcode warns); a constraint cannot hold.
            let outcome =
                invalid.severity == .warning
                ? "only stored attributes and to-one relationships can be indexed, so the "
                    + "index leaves it out"
                : "only stored attributes and to-one relationships can be used"
            report(
                invalid,
                "\(what) of entity '\(entity.name)' names '\(name)', which is \(reason); "
                    + outcome,
                at: location, entity: entity.name, property: name)
        }
    }
}
