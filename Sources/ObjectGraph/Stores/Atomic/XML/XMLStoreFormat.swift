import Foundation

/// Core Data's XML store format (`NSXMLStoreType`): one `<database>` document with
/// `<databaseInfo>` and an `<object>` per managed object. Read with libxml2's streaming reader
/// (no DOM, no network, no DTD, no entities); written in Apple's layout so Core Data on macOS
/// opens the files. Attribute spellings: ``XMLAttributeCoding``; ids: ``XMLObjectIdentifiers``.
///
/// ```swift
/// let coordinator = StoreCoordinator(model: model)
/// try coordinator.addStore(type: .xml, at: URL(fileURLWithPath: "/data/Things.xml"))
/// ```
struct XMLStoreFormat: AtomicStoreFormat {
    var storeType: StoreType { .xml }
    /// `z<N>` ids are unique in a file, so one key space serves every entity.
    var keysAreUniqueAcrossEntities: Bool { true }

    func read(_ data: Data, path: String, schema: ModelSchema) throws -> AtomicStoreContents {
        try XMLStoreReader(path: path, schema: schema).read(data)
    }

    func readMetadata(_ data: Data, path: String) throws -> StoreMetadata {
        try XMLStoreReader(path: path, schema: ModelSchema(model: EntityModel(entities: [])))
            .readMetadata(data)
    }

    func write(_ contents: AtomicStoreContents, schema: ModelSchema) throws -> Data {
        try XMLStoreWriter(schema: schema).write(contents)
    }
}
