import Foundation
import Testing

@testable import ObjectGraph

#if canImport(Glibc)
    import Glibc
#endif

/// `EntityModel.write(to:)` writes each file through a staging file beside it: a killed
/// writer's left-over goes with the next write, a living writer's stays; Date limits a model
/// file cannot hold are refused before anything is written.
@Suite struct ModelFileStagingTests {
    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("the next write removes a killed writer's staging files; a held one stays")
    func staleStagingFiles() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = folder.appendingPathComponent("Shop.xcdatamodeld")
        let model = EntityModel(entities: [Entity("A")])
        try model.write(to: bundle)
        let version = bundle.appendingPathComponent("Shop.xcdatamodel")
        // Killed writers of both files left theirs, unlocked.
        for stale in [
            version.appendingPathComponent(".contents.tmp-999999-Ab12Cd"),
            bundle.appendingPathComponent("..xccurrentversion.tmp-999999-Ef34Gh"),
        ] {
            try Data("partial".utf8).write(to: stale)
        }
        // A writer still at work holds its lock.
        let living = version.appendingPathComponent(".contents.tmp-\(getpid())-Ij56Kl")
        try Data("in progress".utf8).write(to: living)
        let descriptor = open(living.path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)

        let bigger = EntityModel(entities: [Entity("A"), Entity("B")])
        try bigger.write(to: bundle)

        #expect(try EntityModel(contentsOf: bundle) == bigger)
        #expect(try Self.names(in: version) == [".contents.tmp-\(getpid())-Ij56Kl", "contents"])
        #expect(try Self.names(in: bundle) == [".xccurrentversion", "Shop.xcdatamodel"])
    }

    @Test("a write that fails leaves the old file and no temporary file")
    func failedWrite() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let bundle = folder.appendingPathComponent("Shop.xcdatamodeld")
        let model = EntityModel(entities: [Entity("A")])
        try model.write(to: bundle)
        let contents = bundle.appendingPathComponent("Shop.xcdatamodel/contents")
        let before = try Data(contentsOf: contents)
        // A model whose Date default a model file cannot hold: refused before any file changes.
        var when = Attribute("when", type: .date)
        when.defaultDateTimeInterval = .nan
        var event = Entity("Event")
        event.attributes = [when]
        let error = try #require(throws: ModelWriteError.self) {
            try EntityModel(entities: [Entity("A"), event]).write(to: bundle)
        }
        #expect(error.reason.contains("Event.when: defaultDateTimeInterval nan"), "\(error)")
        #expect(try Data(contentsOf: contents) == before)
        #expect(try Self.names(in: contents.deletingLastPathComponent()) == ["contents"])
        #expect(try Self.names(in: bundle) == [".xccurrentversion", "Shop.xcdatamodel"])
    }

    @Test(
        "Date defaults and limits read back exactly; infinities are refused",
        arguments: [
            1e300, -1e300, .leastNonzeroMagnitude, -63_113_904_000.5, .infinity, -.infinity,
        ])
    func dateIntervals(seconds: Double) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        var when = Attribute("when", type: .date)
        when.defaultDateTimeInterval = seconds
        when.minDateTimeInterval = seconds
        when.maxDateTimeInterval = seconds
        var event = Entity("Event")
        event.attributes = [when]
        let model = EntityModel(entities: [event])
        let url = folder.appendingPathComponent("Event.xcdatamodel")
        guard seconds.isFinite else {
            let error = try #require(throws: ModelWriteError.self) { try model.write(to: url) }
            #expect(error.reason.contains("Event.when: defaultDateTimeInterval"), "\(error)")
            #expect(!FileManager.default.fileExists(atPath: url.path))
            return
        }
        try model.write(to: url)
        let read = try #require(try EntityModel(contentsOf: url).entities.first?.attributes.first)
        #expect(read.defaultDateTimeInterval?.bitPattern == seconds.bitPattern)
        #expect(read.minDateTimeInterval?.bitPattern == seconds.bitPattern)
        #expect(read.maxDateTimeInterval?.bitPattern == seconds.bitPattern)
    }
}
