import Foundation
import ObjectGraph
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `objectgraph migrate` killed (SIGKILL) at seeded random moments and while it writes: the store
/// opens at every moment as the old version or the fully migrated one, with every object, and a
/// rerun completes.
@Suite(
    "Killing migrate", .serialized,
    .enabled(if: objectgraphTool != nil, "the objectgraph executable is not built"))
struct MigrateKillTests {
    /// Books in the store, and characters in each title: a few megabytes to migrate.
    static let books = 6000
    static let padding = 400

    /// A small seeded generator (the rounds are the same on every run).
    struct Random {
        var state: UInt64
        mutating func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % max(bound, 1)
        }
    }

    /// Runs `migrate` on `store`; kills it `delay` seconds after it starts, or (with `delay`
    /// nil) as soon as a staging file beside the store has grown, the store's -wal or
    /// -journal passed 256 KB, or the store file itself changed. Returns whether it was killed.
    static func migrateAndKill(tool: URL, bundle: URL, store: URL, delay: Double?) throws -> Bool {
        let process = Process()
        process.executableURL = tool
        process.arguments = ["migrate", "--model", bundle.path, store.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let folder = store.deletingLastPathComponent().path
        let prefix = ".\(store.lastPathComponent).tmp-"
        if let delay {
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
        } else {
            let original = fileStamp(store.path)
            while process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                let staging = names.contains {
                    $0.hasPrefix(prefix) && size(of: folder + "/" + $0) > 0
                }
                // A SQLite store migrated in place writes its -wal (or -journal) instead; a
                // store written over in place would change under its own name.
                let journal = ["-wal", "-journal"].contains {
                    size(of: store.path + $0) > 256 * 1024
                }
                if staging || journal || fileStamp(store.path) != original {
                    kill(process.processIdentifier, SIGKILL)
                    break
                }
                usleep(200)
            }
        }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }

    /// The file's inode, size and modification time (nanoseconds), or zeros when it is absent.
    static func fileStamp(_ path: String) -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [0, 0, 0] }
        return [
            Int(info.st_ino), Int(info.st_size),
            Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec),
        ]
    }

    static func size(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    static func killTest(_ type: StoreType, file: String, seed: UInt64) throws {
        let tool = try #require(objectgraphTool)
        let library = try LibraryBundle()
        defer { library.files.remove() }
        let pristine = try library.makeStore(
            type, "Pristine-\(file)", books: books, padding: padding)
        let store = library.files.folder.appendingPathComponent(file)
        var random = Random(state: seed)
        var outcomes: [String: Int] = [:]
        for round in 0..<10 {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: store.path + suffix)
            }
            try FileManager.default.copyItem(at: pristine, to: store)
            // Even rounds: a random moment in the first 1.5 s; odd rounds: inside a write.
            let delay: Double? = round % 2 == 0 ? Double(random.next(1500)) / 1000 : nil
            let killed = try migrateAndKill(
                tool: tool, bundle: library.bundle, store: store, delay: delay)
            let state = try library.state(type, at: store)
            #expect(state.books == books, "round \(round): \(state.books) books")
            outcomes["\(killed ? "killed" : "finished") at \(state.version)", default: 0] += 1

            // The migration runs again to its end from whatever the kill left.
            let coordinator = try StoreCoordinator(bundle: ModelBundle(contentsOf: library.bundle))
            try coordinator.addStore(type: type, at: store)
            #expect(try library.state(type, at: store) == ("Library 2", books))
        }
        #expect(outcomes["killed at Library", default: 0] > 0, "\(outcomes)")
        let left = try FileManager.default.contentsOfDirectory(atPath: library.files.folder.path)
            .filter { $0.hasPrefix(".\(file).tmp-") }
        #expect(left.isEmpty, "staging files left: \(left)")
    }

    @Test("migrate of a SQLite store killed at any moment leaves the old or the new version")
    func sqlite() throws {
        try Self.killTest(.sqlite, file: "Books.sqlite", seed: 19)
    }

    @Test("migrate of a binary store killed at any moment leaves the old or the new version")
    func binary() throws {
        try Self.killTest(.binary, file: "Books.objectgraph", seed: 20)
    }

    @Test("migrate of an XML store killed at any moment leaves the old or the new version")
    func xml() throws {
        try Self.killTest(.xml, file: "Books.xml", seed: 21)
    }
}
