extension ModelValidator {
    /// `duplicate-entity`, `invalid-name` and `entity-name-case` for entity names.
    mutating func checkEntityNames() {
        var seen: Set<String> = []
        for entity in model.entities {
            if !seen.insert(entity.name).inserted {
                report(
                    .duplicateEntity, "entity '\(entity.name)' is declared more than once",
                    at: entity.location, entity: entity.name)
            }
            if entity.name.isEmpty && loaderReported("missing-name", at: entity.location) {
                continue
            }
            if let problem = Self.identifierProblem(entity.name) {
                report(
                    .invalidName, "entity name '\(entity.name)' \(problem)", at: entity.location,
                    entity: entity.name)
            } else if entity.name.first?.isLowercase == true {
                report(
                    .entityNameCase,
                    "entity name '\(entity.name)' should begin with an uppercase letter",
                    at: entity.location, entity: entity.name)
            }
        }
    }

    /// `duplicate-property`, `redeclared-property`, `invalid-name`, `property-name-case`,
    /// `reserved-name` and `shadowing-name` for the properties declared on `entity`.
    mutating func checkPropertyNames(of entity: Entity) {
        var seen: Set<String> = []
        for property in DeclaredProperty.declared(in: entity) {
            let name = property.name
            let location = property.location
            if !seen.insert(name).inserted {
                report(
                    .duplicateProperty,
                    "property '\(name)' is declared more than once in entity '\(entity.name)'",
                    at: location, entity: entity.name, property: name)
            } else if let ancestor = declaringAncestor(of: name, in: entity) {
                report(
                    .redeclaredProperty,
                    "property '\(name)' of entity '\(entity.name)' redeclares the property "
                        + "inherited from entity '\(ancestor.name)'",
                    at: location, entity: entity.name, property: name)
            }
            if name.isEmpty && loaderReported("missing-name", at: location) { continue }
            if let problem = Self.identifierProblem(name) {
                report(
                    .invalidName, "property name '\(name)' \(problem)", at: location,
                    entity: entity.name, property: name)
                continue
            }
            if name.first?.isUppercase == true {
                report(
                    .propertyNameCase,
                    "property name '\(name)' should begin with a lowercase letter",
                    at: location, entity: entity.name, property: name)
            }
            if ReservedNames.refused.contains(name) {
                report(
                    .reservedName,
                    "property name '\(name)' is reserved: it is a method of NSObject or "
                        + "NSManagedObject, and Core Data refuses it",
                    at: location, entity: entity.name, property: name)
            } else if ReservedNames.shadowing.contains(name) {
                report(
                    .shadowingName,
                    "property name '\(name)' collides with a member of managed objects; "
                        + "choose another name",
                    at: location, entity: entity.name, property: name)
            }
        }
    }

    /// The nearest ancestor of `entity` that declares a property named `name`. Only names
    /// declared by more than one entity are looked up the hierarchy.
    private func declaringAncestor(of name: String, in entity: Entity) -> Entity? {
        guard let owners = propertyOwners[name], owners.count > 1,
            let parent = model.parent(of: entity)
        else { return nil }
        return firstInLineage(of: parent) { owners.contains($0.name) ? $0 : nil }
    }

    /// Why `name` is not a valid model identifier (ASCII letter or `_`, then letters, digits or
    /// `_`, so predicates can name it), or `nil` when it is one.
    static func identifierProblem(_ name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "is empty" }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
        }
        guard isLetter(first) else {
            return "must begin with an ASCII letter or '_'"
        }
        let valid = name.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) }
        return valid ? nil : "may contain only ASCII letters, digits and '_'"
    }
}
