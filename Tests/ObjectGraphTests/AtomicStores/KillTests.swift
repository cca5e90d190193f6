import Foundation
import Testing

@testable import ObjectGraph

#if canImport(Glibc)
    import Glibc
#endif

/// The crash test of issue 6: a child process saves a large graph again and again and is killed
/// (SIGKILL) at random (seeded) moments; every time, the store must open and hold exactly one
/// whole generation of the graph: the last one the child reported saved, or the next one.
@Suite("Killing a saving process", .serialized)
struct KillTests {
    /// `.build/debug/objectgraph` (built by `swift test`), or `nil` when it is missing.
    static let tool: URL? = {
        var candidates = [
            TestSupport.packageRoot.appendingPathComponent(".build/debug/objectgraph")
        ]
        if let first = CommandLine.arguments.first {
            let here = URL(fileURLWithPath: first).deletingLastPathComponent()
            candidates.insert(here.appendingPathComponent("objectgraph"), at: 0)
            candidates.insert(
                here.deletingLastPathComponent().appendingPathComponent("objectgraph"), at: 1)
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static let people = 3000
    /// Characters added to each name: a 3 MB file, so writing and flushing it takes long
    /// enough for some kills to land in the middle of a write.
    static let padding = 1000

    /// The model `_stress-save` expects.
    static let modelXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" \
        lastSavedToolsVersion="23231" systemVersion="24A335" minimumToolsVersion="Automatic" \
        sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Person" representedClassName="Person" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="generation" optional="YES" attributeType="Integer 64" \
        defaultValueString="0" usesScalarValueType="YES"/>
                <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" \
        destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
            </entity>
            <entity name="Team" representedClassName="Team" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" \
        destinationEntity="Person" inverseName="team" inverseEntity="Person"/>
            </entity>
        </model>
        """

    /// When to kill the child.
    enum Kill {
        /// Let it finish.
        case never
        /// After this many seconds.
        case after(Double)
        /// This many seconds after its temporary file appears (inside a write), or after 10 s.
        case duringWrite(Double)
    }

    /// Runs the child and kills it as `kill` says. Returns the last generation it reported
    /// saved.
    static func runChild(
        tool: URL, type: String, model: URL, store: URL, rounds: Int, kill when: Kill
    ) throws -> Int64? {
        let process = Process()
        process.executableURL = tool
        process.arguments = [
            "_stress-save", "--type", type, "--model", model.path, store.path, "--rounds",
            "\(rounds)", "--people", "\(people)", "--padding", "\(padding)",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        switch when {
        case .never:
            break
        case .after(let delay):
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
        case .duringWrite(let delay):
            let folder = store.deletingLastPathComponent().path
            let prefix = ".\(store.lastPathComponent).tmp-"
            let before = Set(temporaryFiles(in: folder, prefix: prefix))
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline,
                Set(temporaryFiles(in: folder, prefix: prefix)).subtracting(before).isEmpty
            {
                usleep(500)
            }
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        return lines.last.flatMap { Int64($0.split(separator: " ").last ?? "") }
    }

    /// The names of the atomic writer's temporary files in `folder`.
    static func temporaryFiles(in folder: String, prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix(prefix) }
    }

    /// Opens the store and returns its generation after checking that it is one whole
    /// generation: `people + g` people all at generation `g`, every team named `g<g>`.
    static func checkedGeneration(_ type: StoreType, store: URL, model: EntityModel) throws
        -> Int64
    {
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: type, at: store, options: StoreOptions(isReadOnly: true))
        let context = ManagedContext(coordinator: coordinator)
        let persons = try context.fetch(FetchRequest(entityName: "Person"))
        let teams = try context.fetch(FetchRequest(entityName: "Team"))
        let generations = Set(persons.map { $0["generation"] as Int64? ?? -1 })
        let generation = try #require(generations.first)
        #expect(generations.count == 1, "mixed generations \(generations.sorted())")
        #expect(persons.count == people + Int(generation))
        #expect(teams.count == people / 100)
        #expect(Set(teams.map { $0["name"] as String? ?? "nil" }) == ["g\(generation)"])
        let members = try teams.reduce(0) { $0 + (try $1.objects(for: "members").count) }
        #expect(members == persons.count)
        return generation
    }

    static func killTest(type: StoreType, typeName: String, file: String, seed: UInt64) throws {
        guard let tool else { return }
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let modelFolder = folder.appendingPathComponent("Stress.xcdatamodel")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
        let modelFile = modelFolder.appendingPathComponent("contents")
        try Data(modelXML.utf8).write(to: modelFile)
        let model = try EntityModel(contentsOf: modelFolder)
        let store = folder.appendingPathComponent(file)

        let initial = try runChild(
            tool: tool, type: typeName, model: modelFolder, store: store, rounds: 0,
            kill: .never)
        #expect(initial == 0)
        var last = try checkedGeneration(type, store: store, model: model)
        #expect(last == 0)
        var random = SeededRandom(seed: seed)
        var advanced = 0
        for round in 0..<16 {
            // Even rounds: a random moment; odd rounds: a random moment inside a write.
            let when: Kill =
                round % 2 == 0
                ? .after(Double(random.next(2500)) / 1000)
                : .duringWrite(Double(random.next(30)) / 1000)
            let reported = try runChild(
                tool: tool, type: typeName, model: modelFolder, store: store, rounds: 1000,
                kill: when)
            let generation = try checkedGeneration(type, store: store, model: model)
            let saved = reported ?? last
            #expect(
                generation == saved || generation == saved + 1,
                "round \(round), killed \(when): reported \(saved), found \(generation)")
            if generation > last { advanced += 1 }
            last = generation
        }
        #expect(advanced >= 3, "the child should save several times before being killed")
    }

    @Test(
        "another process saving the file first makes this process's save fail with a conflict",
        .enabled(if: tool != nil))
    func twoProcesses() throws {
        guard let tool = Self.tool else { return }
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let modelFolder = folder.appendingPathComponent("Stress.xcdatamodel")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
        try Data(Self.modelXML.utf8).write(to: modelFolder.appendingPathComponent("contents"))
        let model = try EntityModel(contentsOf: modelFolder)
        let store = folder.appendingPathComponent("Shared.objectgraph")
        _ = try Self.runChild(
            tool: tool, type: "binary", model: modelFolder, store: store, rounds: 0,
            kill: .never)
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: .binary, at: store)
        let context = ManagedContext(coordinator: coordinator)
        let team = try #require(try context.fetch(FetchRequest(entityName: "Team")).first)
        try team.set("mine", for: "name")
        let other = try Self.runChild(
            tool: tool, type: "binary", model: modelFolder, store: store, rounds: 1,
            kill: .never)
        #expect(other == 1)
        #expect {
            try context.save()
        } throws: { error in
            guard case StoreError.fileChanged(let path) = error else { return false }
            return path == store.path
        }
        #expect(try Self.checkedGeneration(.binary, store: store, model: model) == 1)
    }

    @Test(
        "a binary store killed mid-save holds exactly the old or the new graph",
        .enabled(if: tool != nil))
    func binary() throws {
        try Self.killTest(type: .binary, typeName: "binary", file: "Stress.objectgraph", seed: 2026)
    }

    @Test(
        "an XML store killed mid-save holds exactly the old or the new graph",
        .enabled(if: tool != nil))
    func xml() throws {
        try Self.killTest(type: .xml, typeName: "xml", file: "Stress.xml", seed: 2027)
    }
}
