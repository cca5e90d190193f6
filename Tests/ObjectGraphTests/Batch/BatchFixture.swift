import Foundation

@testable import ObjectGraph

/// The store types every batch test runs on: the SQLite and PostgreSQL stores (SQL), and the
/// stores that run the same requests over their rows.
enum BatchStoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres, xml, binary, inMemory

    var description: String { rawValue }

    var type: StoreType {
        switch self {
        case .sqlite: return .sqlite
        case .postgres: return .postgres
        case .xml: return .xml
        case .binary: return .binary
        case .inMemory: return .inMemory
        }
    }

    /// Where a new store named `name` of this kind goes: a file in `folder`, a fresh schema on
    /// the test PostgreSQL server, or nowhere (in memory).
    func url(in folder: URL, name: String) throws -> URL? {
        switch self {
        case .inMemory: return nil
        case .postgres:
            return try TestPostgresServer.require().url(
                schema: TestPostgresServer.freshSchema(name))
        case .sqlite, .xml, .binary: return folder.appendingPathComponent("\(name).\(rawValue)")
        }
    }
}

/// A store of the batch model, seeded, in a temporary folder:
/// - Folder `work` (label `blue`) holds files `a` (pages 1, 2; tags `red`, `green`) and `b`
///   (tag `red`); Folder `home` (label `blue`) holds file `c` (page 3; tag `green`);
///   Folder `vault` holds file `d` and the lock `l1`.
///
/// Delete rules: Folder.files, File.pages cascade; Folder.locks deny; the rest nullify.
/// Folder.name is required, Tag.title unique (Tag.color free).
final class BatchFixture {
    let kind: BatchStoreKind
    let folder: URL
    let coordinator: StoreCoordinator
    /// The context the requests run in; it keeps every object it registers, so an object made
    /// by a request would stay in ``ManagedContext/registeredObjects``.
    let context: ManagedContext

    init(_ kind: BatchStoreKind) throws {
        self.kind = kind
        folder = try TestSupport.makeTemporaryFolder()
        coordinator = StoreCoordinator(model: Self.model())
        _ = try coordinator.addStore(type: kind.type, at: try kind.url(in: folder, name: "batch"))
        try Self.seed(ManagedContext(coordinator: coordinator))
        context = ManagedContext(coordinator: coordinator)
        context.retainsRegisteredObjects = true
    }

    deinit { TestSupport.removeTemporaryFolder(folder) }

    /// The contexts ``fresh()`` made: kept while the fixture lives, so the objects they
    /// return can still read their relationships.
    private var readers: [ManagedContext] = []

    /// A new context on the coordinator (reads the store as it is now), kept alive.
    func fresh() -> ManagedContext {
        let context = ManagedContext(coordinator: coordinator)
        readers.append(context)
        return context
    }

    /// The objects of `entity` matching `format`, in a fresh context.
    func objects(_ entity: String, _ format: String? = nil) throws -> [ManagedObject] {
        let request = FetchRequest<ManagedObject>(
            entityName: entity, predicate: try format.map { try Predicate(format: $0) })
        return try fresh().fetch(request)
    }

    /// The sorted values of `key` of every object of `entity`, in a fresh context.
    func names(_ entity: String, _ key: String = "name") throws -> [String] {
        try objects(entity).map { BatchFixture.text(try $0.value(for: key)) }.sorted()
    }

    /// The sorted `nameKey` values of the objects related through `key` to the first object
    /// of `entity` matching `format`.
    func related(_ entity: String, _ format: String, _ key: String, nameKey: String = "name")
        throws -> [String]
    {
        guard let object = try objects(entity, format).first else { return [] }
        return try object.objects(for: key).map { BatchFixture.text(try $0.value(for: nameKey)) }
            .sorted()
    }

    /// A string value's text, else the value's description.
    static func text(_ value: Value) -> String {
        if case .string(let text) = value { return text }
        return value.description
    }

    static func model() -> EntityModel {
        var folder = Entity("Folder")
        folder.attributes = [
            Attribute("name", type: .string, isOptional: false),
            Attribute("score", type: .double, defaultValueString: "1"),
        ]
        folder.relationships = [
            Relationship(
                "files", destination: "File", toMany: true, inverse: "folder",
                deleteRule: .cascade),
            Relationship("label", destination: "Label", inverse: "folders"),
            Relationship(
                "locks", destination: "Lock", toMany: true, inverse: "folder", deleteRule: .deny),
        ]
        var file = Entity("File")
        file.attributes = [
            Attribute("name", type: .string), Attribute("bytes", type: .integer64),
        ]
        file.relationships = [
            Relationship("folder", destination: "Folder", inverse: "files"),
            Relationship(
                "pages", destination: "Page", toMany: true, inverse: "file", deleteRule: .cascade),
            Relationship("tags", destination: "Tag", toMany: true, inverse: "files"),
        ]
        var page = Entity("Page")
        page.attributes = [Attribute("name", type: .string)]
        page.relationships = [Relationship("file", destination: "File", inverse: "pages")]
        var tag = Entity("Tag")
        tag.attributes = [Attribute("title", type: .string), Attribute("color", type: .string)]
        tag.relationships = [
            Relationship("files", destination: "File", toMany: true, inverse: "tags")
        ]
        tag.uniquenessConstraints = [["title"]]
        var label = Entity("Label")
        label.attributes = [Attribute("title", type: .string)]
        label.relationships = [
            Relationship("folders", destination: "Folder", toMany: true, inverse: "label")
        ]
        var lock = Entity("Lock")
        lock.attributes = [Attribute("name", type: .string)]
        lock.relationships = [Relationship("folder", destination: "Folder", inverse: "locks")]
        return EntityModel(entities: [folder, file, page, tag, label, lock])
    }

    private static func seed(_ context: ManagedContext) throws {
        func make(_ entity: String, _ key: String, _ name: String) throws -> ManagedObject {
            let object = try context.insert(entity)
            try object.set(name, for: key)
            return object
        }
        let blue = try make("Label", "title", "blue")
        let red = try make("Tag", "title", "red")
        let green = try make("Tag", "title", "green")
        let work = try make("Folder", "name", "work")
        let home = try make("Folder", "name", "home")
        let vault = try make("Folder", "name", "vault")
        try work.set(2.0, for: "score")
        try home.set(3.0, for: "score")
        try work.setObject(blue, for: "label")
        try home.setObject(blue, for: "label")
        let a = try make("File", "name", "a")
        let b = try make("File", "name", "b")
        let c = try make("File", "name", "c")
        let d = try make("File", "name", "d")
        try work.setObjects([a, b], for: "files")
        try home.setObjects([c], for: "files")
        try vault.setObjects([d], for: "files")
        try a.setObjects(
            [try make("Page", "name", "1"), try make("Page", "name", "2")], for: "pages")
        try c.setObjects([try make("Page", "name", "3")], for: "pages")
        try a.setObjects([red, green], for: "tags")
        try b.setObjects([red], for: "tags")
        try c.setObjects([green], for: "tags")
        try vault.setObjects([try make("Lock", "name", "l1")], for: "locks")
        try context.save()
    }
}
