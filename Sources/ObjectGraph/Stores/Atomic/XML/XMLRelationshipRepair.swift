/// Makes both sides of every relationship agree, from what a file says: when `a.r` names `b`
/// and `b`'s inverse does not name `a`, a to-many inverse gains `a` (at its end), an empty to-one
/// inverse is set to `a`, and a to-one inverse naming another object wins (`b` is dropped from
/// `a.r`). Core Data writes both sides, so files it wrote pass unchanged.
enum XMLRelationshipRepair {
    static func repair(_ input: [StoreRow], schema: ModelSchema) -> [StoreRow] {
        var rows = input
        var indexByID: [ObjectID: Int] = [:]
        indexByID.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() { indexByID[row.id] = index }
        // Members of to-many lists, by row index and position (built lazily), and the owners
        // to append to them (applied at the end, so no list is copied per append).
        var members: [Slot: Set<ObjectID>] = [:]
        var appended: [Slot: [ObjectID]] = [:]

        for index in rows.indices {
            let owner = rows[index].id
            let entity = schema.entities[rows[index].entityIndex]
            for position in entity.relationshipPositions {
                guard case .relationship(let relationship) = entity.properties[position],
                    !relationship.relationship.isTransient,
                    let inverseName = relationship.inverseName
                else { continue }
                let targets: [ObjectID]
                switch rows[index].values[position] {
                case .toOne(let target): targets = target.map { [$0] } ?? []
                case .toMany(let list): targets = list ?? []
                case .value: continue
                }
                var kept: [ObjectID] = []
                kept.reserveCapacity(targets.count)
                for target in targets {
                    guard let targetIndex = indexByID[target],
                        let inverse = schema.entities[rows[targetIndex].entityIndex]
                            .positionByName[inverseName]
                    else {
                        kept.append(target)
                        continue
                    }
                    switch rows[targetIndex].values[inverse] {
                    case .toMany(let list):
                        let slot = Slot(row: targetIndex, position: inverse)
                        if members[slot, default: Set(list ?? [])].insert(owner).inserted {
                            appended[slot, default: []].append(owner)
                        }
                        kept.append(target)
                    case .toOne(nil):
                        rows[targetIndex].values[inverse] = .toOne(owner)
                        kept.append(target)
                    case .toOne(let other):
                        if other == owner { kept.append(target) }
                    case .value:
                        kept.append(target)
                    }
                }
                if kept.count != targets.count {
                    if case .toOne = rows[index].values[position] {
                        rows[index].values[position] = .toOne(kept.first)
                    } else {
                        rows[index].values[position] = .toMany(kept)
                    }
                }
            }
        }
        for (slot, owners) in appended {
            if case .toMany(let list) = rows[slot.row].values[slot.position] {
                rows[slot.row].values[slot.position] = .toMany((list ?? []) + owners)
            }
        }
        return rows
    }

    private struct Slot: Hashable {
        var row: Int
        var position: Int
    }
}
