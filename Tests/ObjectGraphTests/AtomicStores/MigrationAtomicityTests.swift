import Foundation
import Testing

@testable import ObjectGraph

#if canImport(Glibc)
    import Glibc
#endif

/// `migrateStore` makes its file whole or not at all, and what killed writers leave is cleaned
/// up by the next writer.
@Suite("Migrations write their file in one step")
struct MigrationAtomicityTests {
    /// The names in `folder`, sorted.
    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("a migration that fails midway (a value XML cannot hold) leaves no file and no staging")
    func failureLeavesNothing() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try AtomicStoreTestSupport.open(.inMemory, at: nil)
        try AtomicStoreTestSupport.populate(context, size: 30, seed: 8)
        try context.insert("Team").set("bell \u{7}", for: "name")
        try context.save()
        let old = try #require(context.coordinator.storeDescriptions.first)
        let target = folder.appendingPathComponent("League.xml")
        #expect(throws: StoreError.self) {
            try context.coordinator.migrateStore(old, to: target, type: .xml)
        }
        #expect(try Self.names(in: folder) == [])
        #expect(context.coordinator.storeDescriptions.map(\.identifier) == [old.identifier])
    }

    @Test(
        "staging files no living writer holds are removed by the next migration, however fresh",
        arguments: [(StoreType.sqlite, "League.sqlite"), (.binary, "League.objectgraph")])
    func deadWritersFilesAreRemoved(type: StoreType, file: String) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        // What a killed convert leaves (written a moment ago: no lock, its process gone), an
        // orphaned journal of one, and a staging file a live writer holds under its lock.
        let dead = ".\(file).tmp-4194303-AbC123"
        let orphan = ".\(file).tmp-4194302-XyZ789-journal"
        let held = ".\(file).tmp-\(getpid())-Held00"
        for name in [dead, dead + "-journal", orphan, held] {
            try Data("partial".utf8).write(to: folder.appendingPathComponent(name))
        }
        // A writer killed between linking its file into place and removing its own name.
        let linked = ".\(file).tmp-4194301-Link00"
        try Data("complete".utf8).write(to: folder.appendingPathComponent("other"))
        #expect(link(folder.path + "/other", folder.path + "/" + linked) == 0)
        let writer = open(folder.appendingPathComponent(held).path, O_RDONLY)
        #expect(writer >= 0 && flock(writer, LOCK_EX) == 0)
        defer { close(writer) }

        let context = try AtomicStoreTestSupport.open(.inMemory, at: nil)
        try AtomicStoreTestSupport.populate(context, size: 20, seed: 9)
        let expected = try AtomicStoreTestSupport.dump(context)
        let old = try #require(context.coordinator.storeDescriptions.first)
        let target = folder.appendingPathComponent(file)
        try context.coordinator.migrateStore(old, to: target, type: type)
        let companions = type == .sqlite ? ["\(file)-shm", "\(file)-wal"] : ["\(file).lock"]
        #expect(try Self.names(in: folder) == ([file, held, "other"] + companions).sorted())
        #expect(
            try AtomicStoreTestSupport.dump(ManagedContext(coordinator: context.coordinator))
                == expected)
    }

    @Test(
        "a SQLite migration is not paired with the -wal and -shm an earlier file left behind")
    func staleWriteAheadLogIsNotPaired() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        // An earlier store at the destination: its last save still in its -wal, copied while it
        // was open; then its file went away and its -wal and -shm stayed.
        let target = folder.appendingPathComponent("League.sqlite")
        let earlier = try AtomicStoreTestSupport.open(.sqlite, at: target)
        try AtomicStoreTestSupport.populate(earlier, size: 25, seed: 10)
        for suffix in ["-wal", "-shm"] {
            try FileManager.default.copyItem(
                atPath: target.path + suffix, toPath: folder.path + "/saved" + suffix)
        }
        earlier.coordinator.storeDescriptions.forEach(earlier.coordinator.removeStore)
        for suffix in ["", "-wal", "-shm"] { unlink(target.path + suffix) }
        for suffix in ["-wal", "-shm"] {
            try FileManager.default.moveItem(
                atPath: folder.path + "/saved" + suffix, toPath: target.path + suffix)
        }

        let context = try AtomicStoreTestSupport.open(.inMemory, at: nil)
        try AtomicStoreTestSupport.populate(context, size: 15, seed: 11)
        let expected = try AtomicStoreTestSupport.dump(context)
        let old = try #require(context.coordinator.storeDescriptions.first)
        try context.coordinator.migrateStore(old, to: target, type: .sqlite)
        #expect(
            try AtomicStoreTestSupport.dump(ManagedContext(coordinator: context.coordinator))
                == expected)
        let alone = StoreCoordinator(model: context.coordinator.model)
        try alone.addStore(type: .sqlite, at: target, options: StoreOptions(isReadOnly: true))
        #expect(try AtomicStoreTestSupport.dump(ManagedContext(coordinator: alone)) == expected)
    }

    @Test("a new file written atomically never replaces one that appeared meanwhile")
    func noReplace() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.objectgraph")
        try Data("theirs".utf8).write(to: url)
        #expect(throws: ObjectGraphError.fileExists(path: url.path)) {
            try AtomicFile.write(Data("mine".utf8), to: url, replacing: false)
        }
        #expect(try Data(contentsOf: url) == Data("theirs".utf8))
        try AtomicFile.write(Data("mine".utf8), to: url, replacing: true)
        #expect(try Data(contentsOf: url) == Data("mine".utf8))
        #expect(try Self.names(in: folder) == ["League.objectgraph"])
    }
}
