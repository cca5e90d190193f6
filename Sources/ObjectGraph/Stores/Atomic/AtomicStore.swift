import Foundation

/// A store whose whole graph lives in memory and in one file: loaded at open, answered with the
/// in-memory evaluator, written whole on every save with ``AtomicFile`` (crash-safe). A save
/// fails with a conflict when another process replaced the file since it was read.
final class AtomicStore: RowTableStore {
    let description: StoreDescription
    let url: URL
    let format: any AtomicStoreFormat
    let schema: ModelSchema
    var table: RowTable
    private var stamp: AtomicFile.Stamp?

    /// Opens the file at `url` (or starts an empty graph when there is none, written at once
    /// unless `writesNewFile` is false: then the first save or import creates the file).
    init(
        url: URL, format: any AtomicStoreFormat, schema: ModelSchema, configuration: String?,
        options: StoreOptions, writesNewFile: Bool = true
    ) throws {
        self.url = url
        self.format = format
        self.schema = schema
        let path = url.path
        if !options.isReadOnly { StagingFile.removeStale(beside: url) }
        let metadata: StoreMetadata
        if FileManager.default.fileExists(atPath: path) {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw StoreError.cannotOpen(path: path, reason: "cannot read the file")
            }
            stamp = AtomicFile.stamp(of: url)
            let contents = try format.read(data, path: path, schema: schema)
            let check = contents.metadata.compatibility(with: schema.model)
            guard check.isCompatible else {
                throw StoreError.incompatibleModel(path: path, compatibility: check)
            }
            metadata = contents.metadata
            table = RowTable(rows: contents.rows, nextKey: contents.nextKeys, schema: schema)
        } else {
            guard !options.isReadOnly, options.createIfMissing else {
                throw StoreError.cannotOpen(path: path, reason: "no such file")
            }
            var fresh = StoreMetadata(model: schema.model)
            fresh.storeType = format.storeType.rawValue
            fresh.autoVacuumLevel = nil
            metadata = fresh
            table = RowTable()
        }
        description = StoreDescription(
            type: format.storeType, url: url, configurationName: configuration,
            isReadOnly: options.isReadOnly, metadata: metadata)
        if stamp == nil, !options.isReadOnly, writesNewFile {
            try write(table)
        }
    }

    func newPrimaryKeys(rootEntity: Int, count: Int) throws -> Range<Int64> {
        guard format.keysAreUniqueAcrossEntities else {
            return table.newPrimaryKeys(rootEntity: rootEntity, count: count)
        }
        let first = max(table.nextKey.values.max() ?? 1, table.nextKey[rootEntity] ?? 1)
        for root in Set(schema.entities.map { schema.root(of: $0).index }) {
            table.nextKey[root] = first + Int64(count)
        }
        return first..<first + Int64(count)
    }

    func save(_ changes: ChangeSet) throws {
        if description.isReadOnly { throw StoreError.readOnly(path: url.path) }
        var next = table
        try next.apply(changes)
        try write(next)
        table = next
    }

    /// Adds `rows` and writes the file once.
    func importRows(_ rows: [StoreRow], schema: ModelSchema) throws {
        if description.isReadOnly { throw StoreError.readOnly(path: url.path) }
        var next = table
        next.importRows(rows, schema: schema)
        try write(next)
        table = next
    }

    /// Writes `rows` over the file, unless another process replaced it since it was read.
    private func write(_ rows: RowTable) throws {
        try AtomicFile.withLock(for: url) {
            let current = AtomicFile.stamp(of: url)
            if current != stamp {
                throw StoreError.fileChanged(path: url.path)
            }
            let contents = AtomicStoreContents(
                metadata: description.metadata, rows: rows.allRows, nextKeys: rows.nextKey)
            let data = try format.write(contents, schema: schema, path: url.path)
            do {
                try AtomicFile.write(data, to: url, replacing: stamp != nil)
            } catch ObjectGraphError.fileExists {
                // Created meanwhile by a process that does not take the lock.
                throw StoreError.fileChanged(path: url.path)
            }
            stamp = AtomicFile.stamp(of: url)
        }
    }

    /// Every row (for moving a store to another type).
    var allRows: [StoreRow] { table.allRows }

    /// Creates a new store file at `url` in one step: `fill` adds the rows to a store whose file
    /// does not exist yet, then the whole graph is written once through a staging file and moved
    /// into place. Until then there is no file at `url`; on failure there is none either.
    /// - Throws: ``ObjectGraphError/fileExists(path:)`` when `url` exists (or appears before
    ///   the move), whatever `fill` or the write throws.
    static func createAtomically(
        at url: URL, format: any AtomicStoreFormat, schema: ModelSchema, configuration: String?,
        fill: (AtomicStore) throws -> Void
    ) throws -> AtomicStore {
        if FileManager.default.fileExists(atPath: url.path) {
            throw ObjectGraphError.fileExists(path: url.path)
        }
        let lockPath = url.path + ".lock"
        let lockExisted = FileManager.default.fileExists(atPath: lockPath)
        do {
            let store = try AtomicStore(
                url: url, format: format, schema: schema, configuration: configuration,
                options: StoreOptions(isReadOnly: false, createIfMissing: true),
                writesNewFile: false)
            try fill(store)
            if store.stamp == nil { try store.write(store.table) }
            return store
        } catch {
            let created = FileManager.default.fileExists(atPath: url.path)
            if !lockExisted, !created { unlink(lockPath) }
            if case StoreError.fileChanged = error, created {
                throw ObjectGraphError.fileExists(path: url.path)
            }
            throw error
        }
    }
}
