import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphCLI

/// Versioned bundles for the `migrate` command's tests: `Library` (Book: title, year), then
/// `Library 2` (Book gains `rating`, Integer 16, default 0).
struct LibraryBundle {
    let files: ValidateDescribeFiles
    let bundle: URL

    static let book = """
        <entity name="Book" representedClassName="Book" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="year" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
            %@
        </entity>
        """
    static let versions = [
        ("Library", book.replacingOccurrences(of: "%@", with: "")),
        (
            "Library 2",
            book.replacingOccurrences(
                of: "%@",
                with: """
                    <attribute name="rating" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                    """)
        ),
    ]

    init() throws {
        files = try ValidateDescribeFiles()
        bundle = files.folder.appendingPathComponent("Library.xcdatamodeld")
        for (name, body) in Self.versions {
            let path = try files.model(name, body)
            let folder = bundle.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: URL(fileURLWithPath: path), to: folder)
        }
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key>\
            <string>Library 2.xcdatamodel</string></dict></plist>
            """
        try Data(plist.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
    }

    /// The model of version `name`.
    func model(_ name: String) throws -> EntityModel {
        try ModelBundle(contentsOf: bundle).model(named: name)
    }

    /// Writes a `type` store of version `Library` at `name` with `books` books (titles padded
    /// with `padding` characters).
    func makeStore(_ type: StoreType, _ name: String, books: Int = 3, padding: Int = 0) throws
        -> URL
    {
        let url = files.folder.appendingPathComponent(name)
        let coordinator = StoreCoordinator(model: try model("Library"))
        try coordinator.addStore(type: type, at: url)
        let context = ManagedContext(coordinator: coordinator)
        let pad = String(repeating: "x", count: padding)
        for index in 0..<books {
            let book = try context.insert("Book")
            try book.set("book \(index)\(pad)", for: "title")
            try book.set(Int64(1900 + index), for: "year")
        }
        try context.save()
        return url
    }

    /// The version the store at `url` is at (`Library` or `Library 2`), and its book count.
    func state(_ type: StoreType, at url: URL) throws -> (version: String, books: Int) {
        let current = try StoreCoordinator(bundle: ModelBundle(contentsOf: bundle))
        let steps = try current.migrationPlan(forStoreAt: url, type: type)
        let version = steps.isEmpty ? "Library 2" : "Library"
        let coordinator = StoreCoordinator(model: try model(version))
        try coordinator.addStore(type: type, at: url, options: StoreOptions(isReadOnly: true))
        let count = try ManagedContext(coordinator: coordinator).count(
            for: FetchRequest(entityName: "Book"))
        return (version, count)
    }
}

/// `objectgraph migrate`: in place, dry run, exit statuses.
@Suite("migrate command")
struct MigrateCommandTests {
    @Test(
        "migrates a store in place to the current version",
        arguments: ["sqlite", "xml", "objectgraph"])
    func migrates(fileExtension: String) throws {
        let library = try LibraryBundle()
        defer { library.files.remove() }
        let type = try #require(StoreType(fileExtension: fileExtension))
        let store = try library.makeStore(type, "Books.\(fileExtension)")
        let result = ValidateDescribeFiles.run([
            "migrate", "--model", library.bundle.path, store.path,
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output == "\(store.path): migrated to Library 2 in 1 step\n")
        #expect(try library.state(type, at: store) == ("Library 2", 3))
        let again = ValidateDescribeFiles.run([
            "migrate", "--model", library.bundle.path, store.path,
        ])
        #expect(again.status == 0)
        #expect(again.output == "\(store.path): already at Library 2\n")
    }

    @Test("--dry-run prints the plan and changes nothing")
    func dryRun() throws {
        let library = try LibraryBundle()
        defer { library.files.remove() }
        let store = try library.makeStore(.sqlite, "Books.sqlite")
        let bytes = try Data(contentsOf: store)
        let result = ValidateDescribeFiles.run([
            "migrate", "--dry-run", "--model", library.bundle.path, store.path,
        ])
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "Library → Library 2 (inferred)")
        #expect(lines.count >= 2)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  ") })
        #expect(try Data(contentsOf: store) == bytes)
    }

    @Test("a store no version matches cannot migrate: exit 1 naming it and the entities")
    func cannotMigrate() throws {
        let library = try LibraryBundle()
        defer { library.files.remove() }
        let otherPath = try library.files.model(
            "Other",
            LibraryBundle.book.replacingOccurrences(
                of: "%@",
                with: "<attribute name=\"isbn\" optional=\"YES\" attributeType=\"String\"/>"))
        let store = library.files.folder.appendingPathComponent("Other.xml")
        let coordinator = StoreCoordinator(
            model: try EntityModel(contentsOf: URL(fileURLWithPath: otherPath)))
        try coordinator.addStore(type: .xml, at: store)
        let bytes = try Data(contentsOf: store)
        let result = ValidateDescribeFiles.run([
            "migrate", "--model", library.bundle.path, store.path,
        ])
        #expect(result.status == 1)
        #expect(
            result.errors.contains(store.path) && result.errors.contains("Book"), "\(result.errors)"
        )
        #expect(try Data(contentsOf: store) == bytes)
    }

    @Test("usage errors and unreadable input exit 2")
    func usage() throws {
        let library = try LibraryBundle()
        defer { library.files.remove() }
        let store = try library.makeStore(.sqlite, "Books.sqlite")
        let missingModel = ValidateDescribeFiles.run(["migrate", store.path])
        #expect(missingModel.status == 2)
        #expect(missingModel.errors.contains("--model"))
        #expect(ValidateDescribeFiles.run(["migrate", "--model", library.bundle.path]).status == 2)
        #expect(
            ValidateDescribeFiles.run([
                "migrate", "--model", library.bundle.path, "--frobnicate", store.path,
            ]).status == 2)
        let noStore = ValidateDescribeFiles.run([
            "migrate", "--model", library.bundle.path, library.files.folder.path + "/none.sqlite",
        ])
        #expect(noStore.status == 2)
        let badVersion = ValidateDescribeFiles.run([
            "migrate", "--model", library.bundle.path, "--to", "Library 7", store.path,
        ])
        #expect(badVersion.status == 2)
        #expect(badVersion.errors.contains("Library 7"))
        #expect(ValidateDescribeFiles.run(["migrate", "--help"]).status == 0)
    }

    @Test("the progress bar line shows the fraction, the steps, the stage and the entity")
    func progressLine() {
        let progress = MigrationProgress(
            fractionCompleted: 0.5, stageIndex: 0, stageCount: 2,
            stage: "Library → Library 2 (inferred)", entityName: "Book")
        #expect(
            ProgressDisplay.bar(ProgressDisplay.Report(progress), elapsed: 1, width: 10)
                == "[#####.....]  50%  0/2 steps  0:01 left  Library → Library 2 (inferred)  Book")
        // Not drawn when standard error is not a terminal (tests, pipes).
        #expect(ProgressDisplay.mode(quiet: false, io: BufferIO()) != .bar)
        #expect(ValidateDescribeFiles.run(["--help"]).output.contains("migrate"))
    }
}
