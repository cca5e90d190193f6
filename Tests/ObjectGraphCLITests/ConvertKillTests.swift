import Foundation
import ObjectGraph
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `objectgraph convert` killed (SIGKILL) while it writes the destination: the destination is
/// absent or complete at every moment, a rerun completes, and no temporary file stays behind.
@Suite(
    "Killing convert", .serialized,
    .enabled(if: objectgraphTool != nil, "the objectgraph executable is not built"))
struct ConvertKillTests {
    /// Books in the source store (and authors of 100 of them each).
    static let books = 20_000
    /// Characters in each title: a 13 MB source, so writing the destination takes a while.
    static let titleLength = 600

    /// A source SQLite store in `files.folder/source` and its model's path.
    static func makeSource(in files: ValidateDescribeFiles) throws -> (store: URL, model: URL) {
        let modelPath = try files.model(
            "Library",
            """
                <entity name="Author" representedClassName="Author" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
                </entity>
                <entity name="Book" representedClassName="Book" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="year" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
                </entity>
            """)
        let model = URL(fileURLWithPath: modelPath)
        let sourceFolder = files.folder.appendingPathComponent("source")
        try FileManager.default.createDirectory(
            at: sourceFolder, withIntermediateDirectories: true)
        let store = sourceFolder.appendingPathComponent("Big.sqlite")
        let coordinator = StoreCoordinator(model: try EntityModel(contentsOf: model))
        try coordinator.addStore(type: .sqlite, at: store)
        let context = ManagedContext(coordinator: coordinator)
        let padding = String(repeating: "x", count: titleLength)
        var author: ManagedObject?
        for index in 0..<books {
            if index % 100 == 0 {
                author = try context.insert("Author")
                try author?.set("author \(index / 100)", for: "name")
            }
            let book = try context.insert("Book")
            try book.set("\(index) \(padding)", for: "title")
            try book.set(Int64(index), for: "year")
            try book.setObject(author, for: "author")
        }
        try context.save()
        return (store, model)
    }

    /// What one run of `convert` came to.
    enum Outcome: Equatable {
        /// Killed while its staging file (`.<dest>.tmp-…`) was there and not empty.
        case killedWhileWriting
        /// Killed after the destination appeared.
        case killedAfterDestination
        /// Ran to its end with this status.
        case finished(Int32)
    }

    /// Runs `convert` and kills it as soon as its staging file has grown (or the destination
    /// appeared while it still runs); polls the folder every half millisecond.
    static func convertAndKill(
        tool: URL, model: URL, source: URL, destination: URL
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = tool
        process.arguments = ["convert", "--model", model.path, source.path, destination.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let folder = destination.deletingLastPathComponent().path
        let prefix = ".\(destination.lastPathComponent).tmp-"
        var outcome: Outcome?
        while process.isRunning, outcome == nil {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            if names.contains(destination.lastPathComponent) {
                kill(process.processIdentifier, SIGKILL)
                outcome = .killedAfterDestination
            } else if names.contains(where: { name in
                name.hasPrefix(prefix) && size(of: folder + "/" + name) > 0
            }) {
                kill(process.processIdentifier, SIGKILL)
                outcome = .killedWhileWriting
            } else {
                usleep(500)
            }
        }
        process.waitUntilExit()
        if process.terminationReason == .exit { return .finished(process.terminationStatus) }
        return outcome ?? .finished(-1)
    }

    /// Runs `convert` to its end and returns its status and output.
    static func convert(tool: URL, model: URL, source: URL, destination: URL) throws
        -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = tool
        process.arguments = ["convert", "--model", model.path, source.path, destination.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func size(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The books and authors in the store at `url`, opened read-only.
    static func contents(_ type: StoreType, at url: URL, model: URL) throws
        -> (books: Int, authors: Int)
    {
        let coordinator = StoreCoordinator(model: try EntityModel(contentsOf: model))
        try coordinator.addStore(type: type, at: url, options: StoreOptions(isReadOnly: true))
        let context = ManagedContext(coordinator: coordinator)
        return (
            try context.count(for: FetchRequest(entityName: "Book")),
            try context.count(for: FetchRequest(entityName: "Author"))
        )
    }

    static func killTest(_ type: StoreType, file: String) throws {
        let tool = try #require(objectgraphTool)
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let (source, model) = try makeSource(in: files)
        let out = files.folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let destination = out.appendingPathComponent(file)
        let expected = (books: books, authors: books / 100)

        // Kill until a kill lands inside the write (a fast write can slip between two polls).
        var landed = false
        for attempt in 0..<5 where !landed {
            let outcome = try convertAndKill(
                tool: tool, model: model, source: source, destination: destination)
            if FileManager.default.fileExists(atPath: destination.path) {
                // Present only when complete.
                let found = try contents(type, at: destination, model: model)
                #expect(
                    found == expected,
                    "attempt \(attempt), \(outcome): the destination exists but holds \(found)")
                try FileManager.default.removeItem(at: out)
                try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            }
            landed = outcome == .killedWhileWriting
        }
        try #require(landed, "no kill landed while convert was writing")
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        let left = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(left.contains { $0.hasPrefix(".\(file).tmp-") }, "killed mid-write: \(left)")

        // The rerun is not refused, completes, and leaves nothing of the killed run.
        let rerun = try convert(tool: tool, model: model, source: source, destination: destination)
        #expect(rerun.status == 0, "\(rerun.output)")
        #expect(rerun.output.contains("\(expected.books + expected.authors) objects"))
        let companions = type == .sqlite ? [] : ["\(file).lock"]
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
                == ([file] + companions).sorted())
        let found = try contents(type, at: destination, model: model)
        #expect(found == expected)
    }

    @Test("convert to SQLite killed mid-write leaves no destination; the rerun completes clean")
    func sqlite() throws {
        try Self.killTest(.sqlite, file: "Out.sqlite")
    }

    @Test("convert to binary killed mid-write leaves no destination; the rerun completes clean")
    func binary() throws {
        try Self.killTest(.binary, file: "Out.objectgraph")
    }

    @Test("convert to XML killed mid-write leaves no destination; the rerun completes clean")
    func xml() throws {
        try Self.killTest(.xml, file: "Out.xml")
    }
}
