/// Prefetching: loading the objects along relationship key paths for many objects at once, so
/// walking 1,000 teams' members costs a handful of queries, not 1,000.
extension ManagedContext {
    /// Loads the objects reached from `objects` along each key path (`"members"`,
    /// `"team.members"`), in batches.
    func prefetch(_ objects: [ManagedObject], keyPaths: [String]) throws {
        for keyPath in keyPaths {
            let path = keyPath.split(separator: ".").map(String.init)
            var current = objects
            for (step, name) in path.enumerated() {
                current = try prefetchStep(
                    current, relationship: name, returningTargets: step < path.count - 1)
                if current.isEmpty { break }
            }
        }
    }

    /// Loads the `relationship` targets of `objects`, and returns them when
    /// `returningTargets` (for the next step of a key path; the last step needs no list).
    private func prefetchStep(
        _ objects: [ManagedObject], relationship name: String, returningTargets: Bool
    ) throws -> [ManagedObject] {
        var reached: [ManagedObject] = []
        var groups: [Int: [ManagedObject]] = [:]
        for object in objects where object.state == .loaded {
            groups[object.schema.index, default: []].append(object)
        }
        for (entityIndex, owners) in groups.sorted(by: { $0.key < $1.key }) {
            let entity = schema.entities[entityIndex]
            guard let position = entity.positionByName[name],
                case .relationship(let relationship) = entity.properties[position]
            else {
                throw ObjectGraphError.unknownProperty(entity: entity.name, property: name)
            }
            if relationship.isToMany {
                reached += try prefetchToMany(
                    owners, entityIndex: entityIndex, position: position,
                    returningTargets: returningTargets)
            } else {
                var targets: [ManagedObject] = []
                for owner in owners {
                    if let target = try owner.resolvedToOne(at: position) { targets.append(target) }
                }
                try loadFaults(targets)
                if returningTargets { reached += targets }
            }
        }
        return reached
    }

    /// Loads the to-many relationship at `position` of `owners` and its objects; returns the
    /// objects when `returningTargets`.
    ///
    /// The objects of relationships read here come loaded (each row registers its object with
    /// its values); only relationships loaded before may hold faults, loaded in batches.
    private func prefetchToMany(
        _ owners: [ManagedObject], entityIndex: Int, position: Int, returningTargets: Bool
    ) throws -> [ManagedObject] {
        var readHere = [Bool](repeating: false, count: owners.count)
        var byStore: [String: [Int]] = [:]
        for (index, owner) in owners.enumerated() {
            guard case .toManyFault(nil) = owner.slots[position], !owner.objectID.isTemporary
            else { continue }
            byStore[owner.objectID.storeIdentifier, default: []].append(index)
        }
        for (storeID, indexes) in byStore {
            let group = indexes.map { owners[$0] }
            guard
                let related = try relatedObjects(
                    of: group, store: storeID, entityIndex: entityIndex, position: position)
            else { continue }
            for index in indexes {
                let owner = owners[index]
                let targets = related[owner.objectID] ?? []
                owner.slots[position] = .toMany(targets)
                if !owner.originals.isEmpty {
                    owner.fillCommittedFault(at: position, with: targets.map(\.objectID))
                }
                readHere[index] = true
            }
        }
        var reached: [ManagedObject] = []
        var loadedBefore: [ManagedObject] = []
        for (index, owner) in owners.enumerated() {
            let members = try owner.resolvedToMany(at: position)
            if returningTargets { reached += members }
            if !readHere[index] { loadedBefore += members }
        }
        try loadFaults(loadedBefore)
        return reached
    }

    /// The registered objects related to each of `owners` (objects of the entity at
    /// `entityIndex` in the store `storeID`) through the to-many relationship at `position`,
    /// by owner; `nil` when the store keeps relationship lists in its rows already.
    private func relatedObjects(
        of owners: [ManagedObject], store storeID: String, entityIndex: Int, position: Int
    ) throws -> [ObjectID: [ManagedObject]]? {
        let ids = owners.map(\.objectID)
        var registrar = RowRegistrar(context: self, groups: ids.count)
        // A root context asks its coordinator directly (the decoding path specialized).
        let generation = try readingGeneration()
        let answer =
            if let upstream = family.upstream {
                try upstream.relatedRows(
                    of: ids, inStore: storeID, entityIndex: entityIndex, position: position,
                    generation: generation, decodingInto: &registrar)
            } else {
                try coordinator.relatedRows(
                    of: ids, inStore: storeID, entityIndex: entityIndex, position: position,
                    generation: generation, decodingInto: &registrar)
            }
        var result: [ObjectID: [ManagedObject]] = [:]
        result.reserveCapacity(ids.count)
        switch answer {
        case .decoded:
            try registrar.finish()
            // An owner listed twice has its objects under its first index.
            for (index, id) in ids.enumerated() where result[id] == nil {
                result[id] = registrar.lists[index]
            }
        case .rows(let related):
            for id in ids {
                result[id] = related[id].map { rows in rows.map { materialize($0) } }
            }
        case .unanswered:
            return nil
        }
        return result
    }

    /// Loads every fault among `objects` with one batch query per store.
    func loadFaults(_ objects: [ManagedObject]) throws {
        let faults = objects.filter { $0.state == .fault && !$0.objectID.isTemporary }
        guard !faults.isEmpty else { return }
        var byStore: [String: [ObjectID]] = [:]
        for fault in faults {
            byStore[fault.objectID.storeIdentifier, default: []].append(fault.objectID)
        }
        for (storeID, ids) in byStore {
            var registrar = RowRegistrar(context: self)
            let generation = try readingGeneration()
            let stored =
                if let upstream = family.upstream {
                    try upstream.rows(
                        for: ids, inStore: storeID, generation: generation,
                        decodingInto: &registrar)
                } else {
                    try coordinator.rows(
                        for: ids, inStore: storeID, generation: generation,
                        decodingInto: &registrar)
                }
            try registrar.finish()
            for row in stored { _ = materialize(row) }
        }
    }
}
