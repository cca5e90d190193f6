import Foundation
import ObjectGraph
import ObjectGraphCLI
import Testing

/// `objectgraph convert`: stores copied between types from the command line.
@Suite("convert command")
struct ConvertCommandTests {
    /// A model with a to-many ↔ to-one pair, and a SQLite store of it with a few objects.
    struct Fixture {
        let files: ValidateDescribeFiles
        let modelPath: String
        let model: EntityModel

        init() throws {
            files = try ValidateDescribeFiles()
            modelPath = try files.model(
                "Shop",
                """
                    <entity name="Shelf" representedClassName="Shelf" syncable="YES">
                        <attribute name="label" optional="YES" attributeType="String"/>
                        <relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="shelf" inverseEntity="Item"/>
                    </entity>
                    <entity name="Item" representedClassName="Item" syncable="YES">
                        <attribute name="price" optional="YES" attributeType="Double" defaultValueString="0" usesScalarValueType="YES"/>
                        <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="items" inverseEntity="Shelf"/>
                    </entity>
                """)
            model = try EntityModel(contentsOf: URL(fileURLWithPath: modelPath))
        }

        func path(_ name: String) -> String { files.folder.appendingPathComponent(name).path }

        /// Writes a store of `type` at `name` with one shelf holding three items in order.
        func makeStore(_ type: StoreType, _ name: String) throws -> String {
            let coordinator = StoreCoordinator(model: model)
            try coordinator.addStore(type: type, at: URL(fileURLWithPath: path(name)))
            let context = ManagedContext(coordinator: coordinator)
            let shelf = try context.insert("Shelf")
            try shelf.set("Top", for: "label")
            var items: [ManagedObject] = []
            for price in [3.5, 1.25, 2.0] {
                let item = try context.insert("Item")
                try item.set(price, for: "price")
                items.append(item)
            }
            try shelf.setObjects(items, for: "items")
            try context.save()
            return path(name)
        }

        /// The shelf's label and its items' prices in order, read from the store at `name`.
        func contents(_ type: StoreType, _ name: String) throws -> (String?, [Double]) {
            let coordinator = StoreCoordinator(model: model)
            try coordinator.addStore(
                type: type, at: URL(fileURLWithPath: path(name)),
                options: StoreOptions(isReadOnly: true))
            let context = ManagedContext(coordinator: coordinator)
            let shelf = try #require(try context.fetch(FetchRequest(entityName: "Shelf")).first)
            let prices = try shelf.objects(for: "items").compactMap { $0["price"] as Double? }
            return (shelf["label"] as String?, prices)
        }
    }

    @Test("SQLite to binary by extension, and back to SQLite by --to with a sniffed source")
    func convertBothWays() throws {
        let fixture = try Fixture()
        defer { fixture.files.remove() }
        let source = try fixture.makeStore(.sqlite, "Shop.sqlite")
        let result = ValidateDescribeFiles.run([
            "convert", "--model", fixture.modelPath, source, fixture.path("Shop.objectgraph"),
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("(SQLite)") && result.output.contains("(Binary)"))
        #expect(result.output.contains("4 objects"))
        let binary = try fixture.contents(.binary, "Shop.objectgraph")
        #expect(binary.0 == "Top")
        #expect(binary.1 == [3.5, 1.25, 2.0])

        try FileManager.default.moveItem(
            atPath: fixture.path("Shop.objectgraph"), toPath: fixture.path("Shop.data"))
        let back = ValidateDescribeFiles.run([
            "convert", "--to", "sqlite", "--model", fixture.modelPath, fixture.path("Shop.data"),
            fixture.path("Again.store"),
        ])
        #expect(back.status == 0, "\(back.errors)")
        let sqlite = try fixture.contents(.sqlite, "Again.store")
        #expect(sqlite.0 == "Top")
        #expect(sqlite.1 == [3.5, 1.25, 2.0])
    }

    @Test(
        "SQLite → binary → SQLite → XML → binary: the same 'objectgraph dump' up to the store UUID")
    func sameDump() throws {
        let fixture = try Fixture()
        defer { fixture.files.remove() }
        let source = try fixture.makeStore(.sqlite, "Shop.sqlite")
        let steps = [
            (source, fixture.path("Shop.objectgraph")),
            (fixture.path("Shop.objectgraph"), fixture.path("Back.sqlite")),
            (fixture.path("Back.sqlite"), fixture.path("Shop.xml")),
            (fixture.path("Shop.xml"), fixture.path("Last.objectgraph")),
        ]
        for (from, to) in steps {
            let result = ValidateDescribeFiles.run([
                "convert", "--model", fixture.modelPath, from, to,
            ])
            #expect(result.status == 0, "\(result.errors)")
        }
        func dump(_ path: String) -> String {
            let result = ValidateDescribeFiles.run(["dump", "--model", fixture.modelPath, path])
            #expect(result.status == 0, "\(result.errors)")
            return result.output.replacing(
                /x-coredata:\/\/[0-9A-F-]+\//, with: "x-coredata://STORE/")
        }
        let original = dump(source)
        #expect(original.split(separator: "\n").count == 4)
        #expect(dump(fixture.path("Shop.objectgraph")) == original)
        #expect(dump(fixture.path("Back.sqlite")) == original)
        #expect(dump(fixture.path("Shop.xml")) == original)
        #expect(dump(fixture.path("Last.objectgraph")) == original)
    }

    @Test("usage errors and unreadable input exit 2 with a hint, writing nothing")
    func errors() throws {
        let fixture = try Fixture()
        defer { fixture.files.remove() }
        let source = try fixture.makeStore(.sqlite, "Shop.sqlite")
        let text = try fixture.files.file("notes.txt", "hello\n")
        let cases: [([String], String)] = [
            (["convert", source, fixture.path("a.objectgraph")], "--model"),
            (["convert", "--model", fixture.modelPath, source], "expected a source"),
            (["convert", "--model", fixture.modelPath, source, fixture.path("a.out")], "--to"),
            (
                [
                    "convert", "--model", fixture.modelPath, "--to", "csv", source,
                    fixture.path("a"),
                ],
                "unknown store type"
            ),
            (["convert", "--model", fixture.modelPath, source, source], "already exists"),
            (["convert", "--model", fixture.modelPath, text, fixture.path("b.sqlite")], "--from"),
            (
                [
                    "convert", "--model", fixture.modelPath, fixture.path("missing.sqlite"),
                    fixture.path("c.objectgraph"),
                ], "no such file"
            ),
            (["convert", "--bogus"], "unknown option"),
        ]
        for (arguments, message) in cases {
            let result = ValidateDescribeFiles.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
        }
        let wrongType = ValidateDescribeFiles.run([
            "convert", "--model", fixture.modelPath, "--from", "binary", source,
            fixture.path("d.sqlite"),
        ])
        #expect(wrongType.status == 2)
        #expect(wrongType.errors.contains("SQLite database"))
        for name in ["a.objectgraph", "b.sqlite", "c.objectgraph", "d.sqlite"] {
            #expect(!FileManager.default.fileExists(atPath: fixture.path(name)), "\(name)")
        }
    }

    @Test("help describes convert; the tool's help lists it and hides _stress-save")
    func help() {
        let help = ValidateDescribeFiles.run(["convert", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: objectgraph convert"))
        let tool = ValidateDescribeFiles.run(["--help"])
        #expect(tool.output.contains("convert"))
        #expect(!tool.output.contains("_stress-save"))
    }
}
