/// Prefetching: loading the objects along relationship key paths for many objects at once, so
/// walking 1,000 teams' members costs a handful of queries, not 1,000.
extension ManagedContext {
    /// Loads the objects reached from `objects` along each key path (`"members"`,
    /// `"team.members"`), in batches.
    func prefetch(_ objects: [ManagedObject], keyPaths: [String]) throws {
        for keyPath in keyPaths {
            let path = keyPath.split(separator: ".").map(String.init)
            var current = objects
            for name in path {
                current = try prefetchStep(current, relationship: name)
                if current.isEmpty { break }
            }
        }
    }

    /// Loads the `relationship` targets of `objects` and returns them.
    private func prefetchStep(_ objects: [ManagedObject], relationship name: String) throws
        -> [ManagedObject]
    {
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
                reached += try prefetchToMany(owners, entityIndex: entityIndex, position: position)
            } else {
                var targets: [ManagedObject] = []
                for owner in owners {
                    if let target = try owner.resolvedToOne(at: position) { targets.append(target) }
                }
                try loadFaults(targets)
                reached += targets
            }
        }
        return reached
    }

    private func prefetchToMany(_ owners: [ManagedObject], entityIndex: Int, position: Int) throws
        -> [ManagedObject]
    {
        let unloaded = owners.filter {
            if case .toManyFault(nil) = $0.slots[position] { return !$0.objectID.isTemporary }
            return false
        }
        var byStore: [String: [ManagedObject]] = [:]
        for owner in unloaded { byStore[owner.objectID.storeIdentifier, default: []].append(owner) }
        for (storeID, group) in byStore {
            let related = try coordinator.withStores { stores in
                try stores.first { $0.description.identifier == storeID }?.relatedRows(
                    of: group.map(\.objectID), entityIndex: entityIndex, position: position)
            }
            guard let related else { continue }
            for owner in group {
                let targets = (related[owner.objectID] ?? []).map { registeredObject(for: $0) }
                owner.slots[position] = .toMany(targets)
                if !owner.originals.isEmpty {
                    owner.fillCommittedFault(at: position, with: targets.map(\.objectID))
                }
            }
        }
        var reached: [ManagedObject] = []
        for owner in owners { reached += try owner.resolvedToMany(at: position) }
        try loadFaults(reached)
        return reached
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
            let rows = try coordinator.withStores { stores in
                try stores.first { $0.description.identifier == storeID }?.rows(for: ids) ?? []
            }
            for row in rows { _ = registeredObject(for: row) }
        }
    }
}
