import Foundation

/// Moving a store to another file and type (Core Data's `migratePersistentStore`).
extension StoreCoordinator {
    /// Copies every object of `store` into a new store of `type` at `url` and uses the new store
    /// in place of the old one from then on, as Core Data's `migratePersistentStore` does. The
    /// old store's file is left as it was.
    ///
    /// Objects keep their identity: the same entity, primary key, values and relationships
    /// (order included). The new store has a new UUID, so an object's URI changes host only:
    /// `x-coredata://<old UUID>/Person/p7` becomes `x-coredata://<new UUID>/Person/p7`, and
    /// ``objectID(forURI:)`` maps URIs of the old store to the new one. Contexts holding
    /// objects of the old store should be reset.
    ///
    /// The new file appears whole or not at all: it is written under a hidden name beside `url`
    /// (`.<name>.tmp-<pid>-XXXXXX`), flushed, and moved to `url` only when complete (a SQLite
    /// store closed first, with no `-wal` or `-shm`). A process killed meanwhile leaves no file
    /// at `url`, so the migration can simply run again; the hidden file it leaves is removed by
    /// the next migration to `url` or the next store opened there for writing.
    ///
    /// ```swift
    /// let sqlite = try coordinator.addStore(type: .sqlite, at: sqliteURL)
    /// let binary = try coordinator.migrateStore(sqlite, to: binaryURL, type: .binary)
    /// // coordinator.storeDescriptions == [binary]
    /// ```
    ///
    /// - Parameters:
    ///   - store: a store of this coordinator.
    ///   - url: the new store's file (ignored by in-memory stores); it must not exist yet. For
    ///     a PostgreSQL store its `postgresql://` URL, whose schema must hold no store yet: the
    ///     store is written into a staging schema and moved into place in one transaction, so
    ///     it too appears whole or not at all.
    ///   - type: the new store's type: in-memory, SQLite, XML, binary or PostgreSQL.
    ///   - progress: called on the calling thread as objects are read (after each entity) and
    ///     written (before and after), with the coordinator locked: it must not call back into
    ///     the coordinator.
    /// - Returns: the new store's description.
    /// - Throws: ``ObjectGraphError/unknownStore(_:)`` when `store` is not in this coordinator,
    ///   ``ObjectGraphError/fileExists(path:)`` when `url` exists (or appears before the new
    ///   file is moved there: it is never replaced), a ``StoreError`` when reading or writing
    ///   fails. On failure the coordinator keeps the old store and no new file is left behind.
    @discardableResult
    public func migrateStore(
        _ store: StoreDescription, to url: URL, type: StoreType,
        progress: (@Sendable (StoreCopyProgress) -> Void)? = nil
    ) throws -> StoreDescription {
        let oldIdentifier = store.identifier
        if type == .postgres {
            // A PostgreSQL schema that holds a store is never replaced either.
            if try StoreMetadataProbe.metadata(ofStoreAt: url, type: type) != nil {
                throw ObjectGraphError.fileExists(path: PostgresStore.displayName(of: url))
            }
        } else if type != .inMemory, FileManager.default.fileExists(atPath: url.path) {
            throw ObjectGraphError.fileExists(path: url.path)
        }
        var rows = try withStoresLocked { stores -> [StoreRow] in
            guard let old = stores.first(where: { $0.description.identifier == oldIdentifier })
            else {
                throw ObjectGraphError.unknownStore(oldIdentifier)
            }
            return try Self.allRows(of: old, schema: schema, progress: progress)
        }
        let total = rows.count
        let fill = { (new: any PersistentStore) throws in
            let newIdentifier = new.description.identifier
            for index in rows.indices {
                rows[index] = Self.row(rows[index], movedFrom: oldIdentifier, to: newIdentifier)
            }
            progress?(
                StoreCopyProgress(phase: .writing, completedObjectCount: 0, totalObjectCount: total)
            )
            try new.importRows(rows, schema: self.schema)
        }
        let configuration = store.configurationName
        let added: any PersistentStore
        switch type {
        case .sqlite:
            added = try SQLiteStore.createAtomically(
                at: url, schema: schema, configuration: configuration, fill: fill)
        case .xml, .binary:
            let format: any AtomicStoreFormat =
                type == .xml ? XMLStoreFormat() : BinaryStoreFormat()
            added = try AtomicStore.createAtomically(
                at: url, format: format, schema: schema, configuration: configuration,
                fill: fill)
        case .postgres:
            added = try PostgresStore.createAtomically(
                at: url, schema: schema, configuration: configuration, fill: fill)
        default:
            let description = try addStore(
                type: type, at: url, configuration: configuration,
                options: StoreOptions(isReadOnly: false, createIfMissing: true))
            do {
                added = try withStoresLocked { stores in
                    guard let new = Self.store(identifiedBy: description.identifier, in: stores)
                    else {
                        throw ObjectGraphError.unknownStore(description.identifier)
                    }
                    try fill(new)
                    return new
                }
            } catch {
                removeStore(description)
                throw error
            }
        }
        replaceStore(oldIdentifier, with: added)
        progress?(
            StoreCopyProgress(phase: .writing, completedObjectCount: total, totalObjectCount: total)
        )
        return added.description
    }

    /// Every row of `store` with complete to-many lists, reporting to `progress` after each
    /// entity.
    static func allRows(
        of store: any PersistentStore, schema: ModelSchema,
        progress: (@Sendable (StoreCopyProgress) -> Void)?
    ) throws -> [StoreRow] {
        var rows = try store.rows(ofEntities: Set(schema.entities.indices))
        var indexesByEntity: [Int: [Int]] = [:]
        for (index, row) in rows.enumerated() {
            indexesByEntity[row.entityIndex, default: []].append(index)
        }
        var done = 0
        progress?(
            StoreCopyProgress(
                phase: .reading, completedObjectCount: 0, totalObjectCount: rows.count))
        for (entityIndex, indexes) in indexesByEntity.sorted(by: { $0.key < $1.key }) {
            let entity = schema.entities[entityIndex]
            for position in entity.relationshipPositions {
                let missing = indexes.filter {
                    position < rows[$0].values.count && rows[$0].values[position] == .toMany(nil)
                }
                guard !missing.isEmpty else { continue }
                let owners = missing.map { rows[$0].id }
                if let related = try store.relatedRows(
                    of: owners, entityIndex: entityIndex, position: position)
                {
                    for index in missing {
                        rows[index].values[position] = .toMany(
                            (related[rows[index].id] ?? []).map(\.id))
                    }
                } else {
                    for index in missing {
                        rows[index].values[position] = .toMany(
                            try store.relatedIDs(
                                of: rows[index].id, entityIndex: entityIndex, position: position))
                    }
                }
            }
            done += indexes.count
            progress?(
                StoreCopyProgress(
                    phase: .reading, completedObjectCount: done, totalObjectCount: rows.count,
                    entityName: entity.entity.name))
        }
        return rows
    }

    /// `row` with every ID of the store `old` re-homed in the store `new`.
    private static func row(_ row: StoreRow, movedFrom old: String, to new: String) -> StoreRow {
        func move(_ id: ObjectID) -> ObjectID {
            id.storeIdentifier == old
                ? ObjectID(entityName: id.entityName, storeIdentifier: new, key: id.key) : id
        }
        var moved = row
        moved.id = move(row.id)
        for (position, value) in row.values.enumerated() {
            switch value {
            case .value(.objectID(let id)): moved.values[position] = .value(.objectID(move(id)))
            case .toOne(let id?): moved.values[position] = .toOne(move(id))
            case .toMany(let ids?): moved.values[position] = .toMany(ids.map(move))
            default: continue
            }
        }
        return moved
    }
}
