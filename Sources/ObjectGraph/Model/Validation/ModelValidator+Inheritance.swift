extension ModelValidator {
    /// `unknown-parent-entity` and `inheritance-cycle`.
    ///
    /// A cycle is reported once for each entity on it (an entity that merely inherits from a
    /// cycle is not). Each parent link is followed once, so deep hierarchies stay linear.
    mutating func checkInheritance() {
        for entity in model.entities {
            guard let parentName = entity.parentName, model.entity(named: parentName) == nil
            else { continue }
            report(
                .unknownParentEntity,
                "entity '\(entity.name)' names an unknown parent entity '\(parentName)'",
                at: entity.location, entity: entity.name)
        }
        let cycles = inheritanceCycles()
        var reported: Set<String> = []
        for entity in model.entities {
            guard let cycle = cycles[entity.name], reported.insert(entity.name).inserted else {
                continue
            }
            report(
                .inheritanceCycle,
                "entity '\(entity.name)' inherits from itself: "
                    + cycle.joined(separator: " -> "),
                at: entity.location, entity: entity.name)
        }
    }

    /// For each entity on an inheritance cycle, the cycle written from it back to it
    /// (`A -> B -> A`).
    private func inheritanceCycles() -> [String: [String]] {
        var visited: Set<String> = []
        var cycles: [String: [String]] = [:]
        for entity in model.entities {
            var path: [String] = []
            var position: [String: Int] = [:]
            var current: Entity? = entity
            while let node = current, visited.insert(node.name).inserted {
                position[node.name] = path.count
                path.append(node.name)
                current = model.parent(of: node)
            }
            guard let repeated = current, let start = position[repeated.name] else { continue }
            let cycle = Array(path[start...])
            for (offset, member) in cycle.enumerated() {
                cycles[member] = Array(cycle[offset...] + cycle[..<offset]) + [member]
            }
        }
        return cycles
    }
}
