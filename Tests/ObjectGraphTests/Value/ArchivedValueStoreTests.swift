import Foundation
import KeyedArchive
import ObjectGraph
import Testing

/// Archived values through the stores: an object of an unknown class, and Foundation values,
/// saved to SQLite, XML and binary stores and read back by a new coordinator are the same bytes.
@Suite("Archived values in stores")
struct ArchivedValueStoreTests {
    static func model() -> EntityModel {
        var thing = Entity("Thing")
        thing.attributes = [
            Attribute("blob", type: .transformable), Attribute("name", type: .string),
        ]
        return EntityModel(entities: [thing])
    }

    /// An app's `Palette` object (class unknown here) holding a color component list, laid
    /// out as `NSKeyedArchiver` lays it out (the object, its name, then its class record).
    static let unknownArchive: Data = {
        var builder = KeyedArchiveBuilder()
        _ = builder.add(
            .dictionary([
                "name": .uid(2), "components": .array([.real(0.5), .real(1)]), "count": .integer(2),
                "$class": .uid(3),
            ]))
        _ = builder.add(.string("Sunset"))
        _ = builder.add(
            .dictionary([
                "$classname": .string("MyApp.Palette"),
                "$classes": .array([.string("MyApp.Palette"), .string("NSObject")]),
            ]))
        return builder.archive(root: .uid(1))
    }()

    @Test(
        "an unknown class and Foundation values are saved unchanged by every store",
        arguments: [StoreType.sqlite, .xml, .binary])
    func savedUnchanged(type: StoreType) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Things.store")
        let unknown = try FoundationArchive.decode(Self.unknownArchive)
        guard case .unknown(let kept) = unknown else {
            Issue.record("not unknown: \(unknown)")
            return
        }
        #expect(kept.className == "MyApp.Palette")
        let known = FoundationValue.dictionary([
            .init(key: .string("when"), value: .date(Date(timeIntervalSinceReferenceDate: 9))),
            .init(key: .string("palette"), value: unknown),
            .init(key: .string("tags"), value: .set([.string("a"), .number(.float(2))])),
        ])
        var written: [String: Data] = [:]
        do {
            let coordinator = StoreCoordinator(model: Self.model())
            try coordinator.addStore(type: type, at: url)
            let context = ManagedContext(coordinator: coordinator)
            for (name, value) in [("unknown", unknown), ("known", known)] {
                let object = try context.insert("Thing")
                try object.set(name, for: "name")
                try object.setArchivedValue(value, for: "blob")
                guard case .data(let bytes) = try object.value(for: "blob") else {
                    Issue.record("no bytes for \(name)")
                    continue
                }
                written[name] = bytes
            }
            try context.save()
        }
        #expect(written["unknown"] == Self.unknownArchive)
        let coordinator = StoreCoordinator(model: Self.model())
        try coordinator.addStore(type: type, at: url)
        let context = ManagedContext(coordinator: coordinator)
        let objects = try context.fetch(FetchRequest(entityName: "Thing"))
        #expect(objects.count == 2)
        for object in objects {
            guard case .string(let name) = try object.value(for: "name") else {
                Issue.record("no name")
                continue
            }
            #expect(try object.value(for: "blob") == .data(try #require(written[name])), "\(name)")
            let value = try object.archivedValue(for: "blob")
            #expect(value == (name == "unknown" ? unknown : known))
        }
    }

    @Test("a value left unchanged keeps its bytes; a changed one keeps the archive's classes")
    func changesKeepTheSourceLayout() throws {
        var builder = KeyedArchiveBuilder()
        _ = builder.add(
            .dictionary([
                "NS.keys": .array([.uid(2)]), "NS.objects": .array([.uid(3)]), "$class": .uid(4),
            ]))
        _ = builder.add(.string("k"))
        _ = builder.add(.integer(1))
        _ = builder.add(
            .dictionary([
                "$classname": .string("NSMutableDictionary"),
                "$classes": .array([
                    .string("NSMutableDictionary"), .string("NSDictionary"), .string("NSObject"),
                ]),
            ]))
        let source = builder.archive(root: .uid(1))
        let context = try TestModels.context(Self.model())
        let object = try context.insert("Thing")
        try object.set(source, for: "blob")
        let value = try #require(try object.archivedValue(for: "blob"))
        try object.setArchivedValue(value, for: "blob")
        #expect(try object.value(for: "blob") == .data(source))
        try object.setArchivedValue(
            .dictionary([.init(key: .string("k"), value: .number(.integer(2)))]), for: "blob")
        guard case .data(let changed) = try object.value(for: "blob") else {
            Issue.record("no bytes")
            return
        }
        #expect(changed.range(of: Data("NSMutableDictionary".utf8)) != nil)
        #expect(
            try object.archivedValue(for: "blob")
                == .dictionary([.init(key: .string("k"), value: .number(.integer(2)))]))
    }

    @Test("bytes that are not an archive are an error naming the entity, property and byte")
    func notAnArchive() throws {
        let context = try TestModels.context(Self.model())
        let object = try context.insert("Thing")
        try object.set(Data("bplist00 and then nothing useful at all, truly".utf8), for: "blob")
        #expect {
            _ = try object.archivedValue(for: "blob")
        } throws: { error in
            guard
                case .typeMismatch(let entity, let property, _, let got)? = error
                    as? ObjectGraphError
            else { return false }
            return entity == "Thing" && property == "blob" && got.contains("byte")
        }
        #expect(throws: ObjectGraphError.self) { try object.setArchivedValue(.null, for: "name") }
    }

    @Test("the NSSecureUnarchiveFromData transformer maps values to archives and back")
    func transformer() throws {
        let transformer = KeyedArchiveTransformer()
        let value = FoundationValue.array([.string("a"), .number(.bool(true))])
        let bytes = try transformer.encode(value)
        #expect(try transformer.decode(bytes) as? FoundationValue == value)
        #expect(throws: ObjectGraphError.self) { try transformer.encode(42) }
        #expect(KeyedArchiveTransformer.name == "NSSecureUnarchiveFromData")
    }
}
