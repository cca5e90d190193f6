/// The rows a batch delete removes and the rows it changes, worked out from the stored rows
/// with the model's delete rules, as a context's delete applies them: cascade relationships
/// delete their targets (and theirs, in turn), a deny relationship holding a row that is not
/// deleted refuses the whole request, and every row left alive that a deleted row's
/// relationship reaches drops the deleted row from its inverse (nullified).
struct BatchDeletion {
    /// The rows deleted: the selected ones, then those deleted by cascade.
    private(set) var deleted: [StoreRow] = []
    /// The rows left alive whose inverse relationships lost a deleted row, each with its
    /// changed positions.
    var nullified: [StoreRow] { nullifiedOrder.compactMap { nullifiedRows[$0] } }

    private var deleting = Set<ObjectID>()
    private var nullifiedRows: [ObjectID: StoreRow] = [:]
    private var nullifiedOrder: [ObjectID] = []

    /// Plans the deletion of `rows`, reading related rows through `graph`, and the rows of
    /// given entities (by index) through `holders` (see ``dropFromUnpaired(_:_:_:)``).
    /// - Throws: ``ValidationError`` (rule `deleteDenied`) naming each deny relationship that
    ///   holds a row not deleted.
    init(
        deleting rows: [StoreRow], graph: StoredRowGraph, schema: ModelSchema,
        holders: (Set<Int>) throws -> [StoreRow]
    ) throws {
        for row in rows where deleting.insert(row.id).inserted { deleted.append(row) }
        var next = 0
        while next < deleted.count {
            let row = deleted[next]
            next += 1
            for (position, relationship) in Self.relationships(of: row, schema)
            where relationship.deleteRule == .cascade {
                for id in try Self.targets(of: row, at: position, graph: graph)
                where !deleting.contains(id) {
                    guard let target = try graph.view(of: id)?.row else { continue }
                    deleting.insert(id)
                    deleted.append(target)
                }
            }
        }
        try checkDenyRules(graph: graph, schema: schema)
        for row in deleted {
            for (position, relationship) in Self.relationships(of: row, schema) {
                guard let inverse = relationship.inverseName else { continue }
                for id in try Self.targets(of: row, at: position, graph: graph)
                where !deleting.contains(id) {
                    try nullify(row.id, in: id, inverse: inverse, graph: graph, schema: schema)
                }
            }
        }
        try dropFromUnpaired(graph, schema, holders)
    }

    /// Takes the deleted rows out of the relationships without an inverse of the rows that
    /// stay (to-one ones are cleared, to-many ones lose them), as the SQLite store's batch
    /// delete does. Core Data leaves such a to-one pointing at the deleted row (its fault then
    /// fails to fire) and its to-many reads skip them; here no reference to a deleted row is
    /// left, which the XML store could not even write.
    private mutating func dropFromUnpaired(
        _ graph: StoredRowGraph, _ schema: ModelSchema,
        _ holders: (Set<Int>) throws -> [StoreRow]
    ) throws {
        let deletedEntities = Set(deleted.map { schema.entities[$0.entityIndex].name })
        var unpaired: [Int: [String]] = [:]
        for entity in schema.entities where !entity.entity.isAbstract {
            for position in entity.relationshipPositions {
                guard case .relationship(let relationship) = entity.properties[position],
                    relationship.relationship.inverseName == nil,
                    !relationship.relationship.isTransient,
                    let destination = relationship.destinationIndex,
                    schema.family(of: schema.entities[destination]).contains(where: {
                        deletedEntities.contains($0.name)
                    })
                else { continue }
                unpaired[entity.index, default: []].append(entity.names[position])
            }
        }
        guard !unpaired.isEmpty else { return }
        for holder in try holders(Set(unpaired.keys)) where !deleting.contains(holder.id) {
            let entity = schema.entities[holder.entityIndex]
            for name in unpaired[holder.entityIndex] ?? [] {
                guard let position = entity.positionByName[name] else { continue }
                for id in try Self.targets(of: holder, at: position, graph: graph)
                where deleting.contains(id) {
                    try nullify(id, in: holder.id, inverse: name, graph: graph, schema: schema)
                }
            }
        }
    }

    /// Throws when a deny relationship of a deleted row holds a row that stays.
    private func checkDenyRules(graph: StoredRowGraph, schema: ModelSchema) throws {
        var problems: [ValidationError.Problem] = []
        for row in deleted {
            let entity = schema.entities[row.entityIndex]
            for (position, relationship) in Self.relationships(of: row, schema)
            where relationship.deleteRule == .deny {
                let kept = try Self.targets(of: row, at: position, graph: graph).filter {
                    !deleting.contains($0)
                }
                guard let first = kept.first else { continue }
                problems.append(
                    ValidationError.Problem(
                        objectID: row.id, entity: entity.name, property: relationship.name,
                        rule: .deleteDenied, value: .objectID(first),
                        message:
                            "the deny rule of \(entity.name).\(relationship.name) refuses the"
                            + " batch delete: it holds \(kept.count) object(s) not deleted"))
            }
        }
        if !problems.isEmpty { throw ValidationError(problems: problems) }
    }

    /// Removes `deletedID` from the relationship `inverse` of the row of `id`.
    private mutating func nullify(
        _ deletedID: ObjectID, in id: ObjectID, inverse: String, graph: StoredRowGraph,
        schema: ModelSchema
    ) throws {
        guard var row = try nullifiedRows[id] ?? graph.view(of: id)?.row else { return }
        let entity = schema.entities[row.entityIndex]
        guard let position = entity.positionByName[inverse], position < row.values.count else {
            return
        }
        switch row.values[position] {
        case .value:
            return
        case .toOne(let target):
            guard target == deletedID else { return }
            row.values[position] = .toOne(nil)
        case .toMany:
            let targets = try Self.targets(of: row, at: position, graph: graph)
            guard targets.contains(deletedID) else { return }
            row.values[position] = .toMany(targets.filter { $0 != deletedID })
        }
        if !(row.changedPositions ?? []).contains(position) {
            row.changedPositions = (row.changedPositions ?? []) + [position]
        }
        if nullifiedRows.updateValue(row, forKey: id) == nil { nullifiedOrder.append(id) }
    }

    /// The persistent relationships of `row`'s entity, by position.
    private static func relationships(of row: StoreRow, _ schema: ModelSchema)
        -> [(Int, Relationship)]
    {
        let entity = schema.entities[row.entityIndex]
        return entity.relationshipPositions.compactMap { position in
            guard case .relationship(let relationship) = entity.properties[position],
                !relationship.relationship.isTransient, position < row.values.count
            else { return nil }
            return (position, relationship.relationship)
        }
    }

    /// The IDs the relationship at `position` of `row` holds.
    static func targets(of row: StoreRow, at position: Int, graph: StoredRowGraph) throws
        -> [ObjectID]
    {
        switch row.values[position] {
        case .value: return []
        case .toOne(let id): return id.map { [$0] } ?? []
        case .toMany: return try graph.targets(of: row, position: position)
        }
    }
}
