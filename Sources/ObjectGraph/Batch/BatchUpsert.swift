/// A batch insert into an entity with uniqueness constraints, under a merge policy that
/// resolves collisions (Core Data upserts there): an incoming object whose constrained values a
/// stored row of the same entity holds updates that row instead of inserting (incoming values
/// win under ``MergePolicy/mergeByPropertyObjectTrump`` and ``MergePolicy/overwrite``; the
/// stored row is kept as it is under ``MergePolicy/mergeByPropertyStoreTrump`` and
/// ``MergePolicy/rollback``), and of two incoming objects with the same values one is kept (the
/// later one when incoming values win). Under ``MergePolicy/error`` nothing is resolved: the
/// save refuses the collision.
struct BatchUpsert {
    /// The values of the objects still to insert.
    private(set) var inserts: [[StoredValue]] = []
    /// The stored rows taking incoming values, each with its changed positions.
    var updates: [StoreRow] { updatedOrder.compactMap { updated[$0] } }

    private var updated: [Int: StoreRow] = [:]
    private var updatedOrder: [Int] = []

    /// Resolves `valueRows` (objects of `entity`) against `stored` (rows of `entity`'s
    /// inheritance tree).
    init(
        _ valueRows: [[StoredValue]], entity: EntitySchema, schema: ModelSchema,
        stored: [StoreRow], incomingWins: Bool
    ) {
        let constraints = Self.constraints(of: entity, schema)
        var storedByKey = [[[Value]: Int]](repeating: [:], count: constraints.count)
        for (index, row) in stored.enumerated() where row.entityIndex == entity.index {
            for (number, properties) in constraints.enumerated() {
                let key = StoreCoordinator.constraintKey(entity, properties) { position in
                    position < row.values.count ? row.values[position] : .value(.null)
                }
                if let key { storedByKey[number][key] = index }
            }
        }
        var incomingByKey = [[[Value]: Int]](repeating: [:], count: constraints.count)
        for values in valueRows {
            let keys = constraints.map { properties in
                StoreCoordinator.constraintKey(entity, properties) { values[$0] }
            }
            var incoming: Int?
            var holder: Int?
            for (number, key) in keys.enumerated() {
                guard let key else { continue }
                if let index = incomingByKey[number][key] {
                    incoming = index
                    break
                }
                if let index = storedByKey[number][key] {
                    holder = index
                    break
                }
            }
            if let incoming {
                if incomingWins { inserts[incoming] = values }
                continue
            }
            if let holder {
                guard incomingWins else { continue }
                var row = updated[holder] ?? stored[holder]
                var changed: [Int] = []
                for position in entity.attributePositions where !entity.isTransient[position] {
                    row.values[position] = values[position]
                    changed.append(position)
                }
                row.changedPositions = changed
                if updated.updateValue(row, forKey: holder) == nil { updatedOrder.append(holder) }
                continue
            }
            for (number, key) in keys.enumerated() {
                if let key { incomingByKey[number][key] = inserts.count }
            }
            inserts.append(values)
        }
    }

    /// The uniqueness constraints of `entity` and its ancestors (each a list of property
    /// names).
    static func constraints(of entity: EntitySchema, _ schema: ModelSchema) -> [[String]] {
        var result: [[String]] = []
        var current: EntitySchema? = entity
        var steps = 0
        while let checked = current, steps <= schema.entities.count {
            result += checked.entity.uniquenessConstraints
            current = checked.parentIndex.map { schema.entities[$0] }
            steps += 1
        }
        return result
    }
}
