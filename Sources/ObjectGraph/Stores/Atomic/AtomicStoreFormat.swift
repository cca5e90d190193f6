import Foundation

/// What an atomic store's file holds: the whole graph.
struct AtomicStoreContents: Sendable {
    /// The store's metadata (UUID, type, model version hashes, …).
    var metadata: StoreMetadata
    /// Every row. IDs carry the store's UUID (`metadata.storeUUID`); relationship lists are
    /// complete on both sides (`.toMany` never holds `nil` here).
    var rows: [StoreRow]
    /// The next primary key of each inheritance tree, by root entity index of the schema.
    var nextKeys: [Int: Int64]
}

/// A file format of an atomic store (XML, binary): reads and writes the whole graph.
protocol AtomicStoreFormat: Sendable {
    /// The store type this format implements.
    var storeType: StoreType { get }
    /// Whether one key space serves every entity (the XML format's `z<N>` ids are unique in a
    /// file), so new keys never repeat across inheritance trees.
    var keysAreUniqueAcrossEntities: Bool { get }
    /// Reads a whole file.
    /// - Throws: ``StoreError`` naming `path` and what is wrong (never traps, never returns
    ///   half a graph).
    func read(_ data: Data, path: String, schema: ModelSchema) throws -> AtomicStoreContents
    /// Reads only the file's metadata (UUID, version hashes, …), with no model: what a
    /// migration looks at before it knows the version the file was written with.
    /// - Throws: ``StoreError`` naming `path` and what is wrong.
    func readMetadata(_ data: Data, path: String) throws -> StoreMetadata
    /// Writes the whole graph.
    /// - Throws: ``UnwritableGraph`` when a row or value cannot be written in the format (the
    ///   store reports it as ``StoreError/cannotWrite(path:reason:)``, naming its file).
    func write(_ contents: AtomicStoreContents, schema: ModelSchema) throws -> Data
}

extension AtomicStoreFormat {
    /// Keys are per inheritance tree unless a format says otherwise.
    var keysAreUniqueAcrossEntities: Bool { false }

    /// Writes the whole graph of the file at `path`.
    /// - Throws: ``StoreError/cannotWrite(path:reason:)`` naming `path` when the graph cannot
    ///   be written in the format.
    func write(_ contents: AtomicStoreContents, schema: ModelSchema, path: String) throws -> Data {
        do {
            return try write(contents, schema: schema)
        } catch let error as UnwritableGraph {
            throw StoreError.cannotWrite(path: path, reason: error.reason)
        }
    }
}

/// A graph an atomic format cannot write, and why. Formats know no file; the store that called
/// them turns this into a ``StoreError/cannotWrite(path:reason:)`` naming its file.
struct UnwritableGraph: Error {
    /// What cannot be written (the row, entity and property where known).
    let reason: String

    init(_ reason: String) { self.reason = reason }
}
