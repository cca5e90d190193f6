import Foundation
import Testing

@testable import ObjectGraph

/// A save inserting several objects of an entity on PostgreSQL writes them with one `INSERT …
/// SELECT … FROM unnest(…)` (``PostgresStore/insertRows(_:insertOne:)``): every value of every
/// type, nil, relationships and keys read back as a statement per row writes them.
@Suite("PostgreSQL saves insert an entity's rows set-based")
struct PostgresSetInsertTests {
    /// `Sample` with an attribute of each stored type and a to-one `box` ↔ to-many `samples`;
    /// `Box` with a name.
    static func model() -> EntityModel {
        let types: [(String, AttributeType)] = [
            ("small", .integer16), ("medium", .integer32), ("large", .integer64),
            ("amount", .decimal), ("ratio", .double), ("weight", .float), ("name", .string),
            ("flag", .boolean), ("when", .date), ("blob", .binary), ("tag", .uuid),
            ("link", .uri),
        ]
        let sample = Entity(
            "Sample", attributes: types.map { Attribute($0.0, type: $0.1) },
            relationships: [Relationship("box", destination: "Box", inverse: "samples")])
        let box = Entity(
            "Box", attributes: [Attribute("name", type: .string)],
            relationships: [
                Relationship("samples", destination: "Sample", toMany: true, inverse: "box")
            ])
        return EntityModel(entities: [sample, box])
    }

    /// The values of sample `index`: every fifth nil throughout, texts with quotes,
    /// backslashes, braces, commas, "NULL" and non-ASCII.
    static func values(_ index: Int) -> [String: Value] {
        guard index % 5 != 4 else { return [:] }
        let texts = ["plain", "a \"quoted\" \\ back,slash {brace}", "NULL", "café ∑ 🎉", ""]
        return [
            "small": .integer(Int64(index % 300) - 150),
            "medium": .integer(Int64(index) * 1_000_003),
            "large": .integer(index == 0 ? .min : Int64(index) << 40),
            "amount": .decimal(Decimal(string: "\(index).\(index % 7)05") ?? 0),
            "ratio": .double(index == 1 ? -.infinity : Double(index) / 3),
            "weight": .double(Double(Float(index) * 0.5)),
            "name": .string(texts[index % texts.count] + "\(index)"),
            "flag": .bool(index % 2 == 0),
            "when": .date(Date(timeIntervalSinceReferenceDate: Double(index) * 86_400.25)),
            "blob": .data(Data((0..<(index % 9)).map { UInt8(($0 * 37 + index) % 256) })),
            "tag": .uuid(
                UUID(uuid: (UInt8(index % 256), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))),
            "link": .uri(
                URL(string: "https://example.org/\(index)?q=\"x\"") ?? URL(fileURLWithPath: "/")),
        ]
    }

    /// Saves 60 samples (and 3 boxes) on a fresh store, logging the statements; returns the
    /// URL and the statements.
    static func seed(nanAt nan: Int? = nil) throws -> (URL, [String]) {
        let url = try TestPostgresServer.require().url(
            schema: TestPostgresServer.freshSchema("setinsert"))
        let statements = Locked<[String]>([])
        var options = StoreOptions()
        options.sqlDebugLevel = 1
        options.sqlLogHandler = SQLLogHandler { entry in
            statements.withLock { $0.append(entry.sql) }
        }
        let coordinator = StoreCoordinator(model: model())
        try coordinator.addStore(type: .postgres, at: url, options: options)
        let context = ManagedContext(coordinator: coordinator)
        var boxes: [ManagedObject] = []
        for index in 0..<3 {
            let box = try context.insert("Box")
            try box.set("box \(index)", for: "name")
            boxes.append(box)
        }
        for index in 0..<60 {
            let sample = try context.insert("Sample")
            for (name, value) in values(index) { try sample.set(value, for: name) }
            if index == nan { try sample.set(Double.nan, for: "ratio") }
            if index % 4 != 3 { try sample.setObject(boxes[index % 3], for: "box") }
        }
        statements.withLock { $0 = [] }
        try context.save()
        return (url, statements.withLock { $0 })
    }

    /// Every sample's values and box name, by its `medium` (or its position among the nil
    /// ones), read through a fresh coordinator.
    static func readBack(_ url: URL) throws -> [String] {
        let coordinator = StoreCoordinator(model: model())
        try coordinator.addStore(type: .postgres, at: url)
        let context = ManagedContext(coordinator: coordinator)
        return try context.fetch(FetchRequest(entityName: "Sample")).map { sample in
            let names = [
                "small", "medium", "large", "amount", "ratio", "weight", "name", "flag",
                "when", "blob", "tag", "link",
            ]
            let box: ManagedObject? = try sample.object(for: "box")
            let boxName: String? = box?["name"]
            return try names.map { "\($0)=\(try sample.value(for: $0))" }
                .joined(separator: " ") + " box=\(boxName ?? "-") v\(sample.version)"
        }.sorted()
    }

    /// What the values read back should be: `values(index)` as text, in the same format.
    static func expected(nanAt nan: Int? = nil) -> [String] {
        (0..<60).map { index in
            var values = values(index)
            if index == nan { values["ratio"] = .double(.nan) }
            let names = [
                "small", "medium", "large", "amount", "ratio", "weight", "name", "flag",
                "when", "blob", "tag", "link",
            ]
            let box = index % 4 != 3 ? "box \(index % 3)" : "-"
            return names.map { "\($0)=\(values[$0] ?? .null)" }.joined(separator: " ")
                + " box=\(box) v1"
        }.sorted()
    }

    @Test("many inserts of an entity are one statement, and read back exactly")
    func setBased() throws {
        let (url, statements) = try Self.seed()
        let inserts = statements.filter { $0.hasPrefix("INSERT INTO \"ZSAMPLE\"") }
        #expect(inserts.count == 1)
        #expect(inserts.first?.contains("FROM unnest(") == true)
        #expect(try Self.readBack(url) == Self.expected())
    }

    @Test("a NaN sends its entity's rows through the statement per row, with the same result")
    func nanFallsBack() throws {
        let (url, statements) = try Self.seed(nanAt: 7)
        let inserts = statements.filter { $0.hasPrefix("INSERT INTO \"ZSAMPLE\"") }
        #expect(inserts.count == 60)
        let read = try Self.readBack(url)
        #expect(read.count == 60)
        #expect(read.contains { $0.contains("ratio=nan") })
    }
}
