extension ModelValidator {
    /// `unknown-parent-entity` and `inheritance-cycle`.
    ///
    /// A cycle is reported once for each entity on it (an entity that merely inherits from a
    /// cycle is not).
    mutating func checkInheritance() {
        for entity in model.entities {
            guard let parentName = entity.parentName else { continue }
            guard model.entity(named: parentName) != nil else {
                report(
                    .unknownParentEntity,
                    "entity '\(entity.name)' names an unknown parent entity '\(parentName)'",
                    at: entity.location, entity: entity.name)
                continue
            }
            var path = [entity.name]
            var seen: Set<String> = [entity.name]
            var current = entity
            while let parent = model.parent(of: current) {
                path.append(parent.name)
                if parent.name == entity.name {
                    report(
                        .inheritanceCycle,
                        "entity '\(entity.name)' inherits from itself: "
                            + path.joined(separator: " -> "),
                        at: entity.location, entity: entity.name)
                    break
                }
                guard seen.insert(parent.name).inserted else { break }
                current = parent
            }
        }
    }
}
