import Foundation
import ObjectGraph
import ObjectGraphCLI
import SQLiteDatabase
import Testing

/// A folder's files by name: bytes and modification date.
private struct FolderState: Equatable {
    var files: [String: [Data?]] = [:]

    init(_ folder: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let path = folder.appendingPathComponent(name).path
            let date = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate]
            let stamp = (date as? Date).map { Data("\($0.timeIntervalSince1970)".utf8) }
            files[name] = [FileManager.default.contents(atPath: path), stamp]
        }
    }
}

@Suite("Reading a store changes nothing beside it, and reads it wherever it is")
struct ReadOnlyStoreCommandTests {
    /// A new temporary folder.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ReadOnlyStore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs dump, query and convert (reading `store`, writing into `output`); returns the dump.
    static func readEveryWay(model: URL, store: URL, output: URL) -> String {
        let dump = BufferIO()
        #expect(CommandLineTool.run(["dump", "--model", model.path, store.path], io: dump) == 0)
        #expect(dump.errorOutput.isEmpty, "\(dump.errorOutput)")
        let query = BufferIO()
        let queried = CommandLineTool.run(
            ["query", "--model", model.path, "--entity", "Person", store.path, "name != nil"],
            io: query)
        #expect(queried == 0, "\(query.errorOutput)")
        for destination in ["copy.sqlite", "copy.xml", "copy.objectgraph"] {
            let target = output.appendingPathComponent(UUID().uuidString + destination).path
            let convert = BufferIO()
            let status = CommandLineTool.run(
                ["convert", "--model", model.path, store.path, target], io: convert)
            #expect(status == 0, "\(destination): \(convert.errorOutput)")
        }
        return dump.output
    }

    @Test(
        "dump, query and convert leave the store's folder as it was",
        arguments: ["WAL, no -wal or -shm", "WAL with a zeroed -shm", "rollback journal"])
    func readingChangesNothing(_ variant: String) throws {
        let folder = try Self.folder()
        let output = try Self.folder()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: output)
        }
        let (model, store) = try DumpCommandTests.makeStore(in: folder)
        if variant == "WAL with a zeroed -shm" {
            try Data(count: 32_768).write(to: URL(fileURLWithPath: store.path + "-shm"))
        } else if variant == "rollback journal" {
            let database = try Database(url: store, mode: .readWrite)
            try database.setJournalMode(.delete)
            try database.close()
        }
        let storeFolder = store.deletingLastPathComponent()
        let before = try FolderState(storeFolder)
        let dump = Self.readEveryWay(model: model, store: store, output: output)
        #expect(dump.split(separator: "\n").count == 2)
        let after = try FolderState(storeFolder)
        #expect(
            after == before,
            "\(variant): \(before.files.keys.sorted()) → \(after.files.keys.sorted())")
    }

    /// A store whose 40 people are only in its `-wal`: the files are copied into `folder` while
    /// the writing coordinator still has the store open.
    static func storeWithRowsOnlyInItsWAL(in folder: URL) throws -> (model: URL, store: URL) {
        let scratch = try Self.folder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (model, original) = try DumpCommandTests.makeStore(in: scratch)
        let coordinator = StoreCoordinator(model: try EntityModel(contentsOf: model))
        try coordinator.addStore(type: .sqlite, at: original)
        let context = ManagedContext(coordinator: coordinator)
        for index in 0..<40 {
            try context.insert("Person").set("Person \(index)", for: "name")
        }
        try context.save()
        let store = folder.appendingPathComponent("League.sqlite")
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(
                atPath: original.path + suffix, toPath: store.path + suffix)
        }
        withExtendedLifetime(coordinator) {}
        let modelCopy = folder.appendingPathComponent("League.xcdatamodel")
        try FileManager.default.copyItem(at: model, to: modelCopy)
        return (modelCopy, store)
    }

    @Test(
        "a store copied with its -wal into a folder without write permission: every row is read",
        arguments: [false, true])
    func walRowsInAReadOnlyFolder(zeroedSHM: Bool) throws {
        let folder = try Self.folder()
        let output = try Self.folder()
        defer {
            chmod(folder.path, 0o755)
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: output)
        }
        let (model, store) = try Self.storeWithRowsOnlyInItsWAL(in: folder)
        let walSize = try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size]
        #expect((walSize as? Int ?? 0) > 0)
        if zeroedSHM {
            try Data(count: 32_768).write(to: URL(fileURLWithPath: store.path + "-shm"))
        }
        let before = try FolderState(folder)
        // As root (uid 0) the mode does not stop writes: the folder comparison below still
        // proves nothing was created or rewritten, and `readOnlyFolderForReal` drops root's
        // override to show the files are read where writing is refused.
        #expect(chmod(folder.path, 0o555) == 0)
        let dump = Self.readEveryWay(model: model, store: store, output: output)
        #expect(dump.split(separator: "\n").count == 42)
        #expect(dump.contains("\"Person 39\""))
        #expect(try FolderState(folder) == before)
    }

    @Test(
        "a process that really cannot write the folder reads every -wal row",
        .enabled(if: objectgraphTool != nil, "the objectgraph executable is not built"),
        .enabled(
            if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "running as root without setpriv to drop the permission override"))
    func readOnlyFolderForReal() throws {
        let tool = try #require(objectgraphTool)
        let folder = try Self.folder()
        defer {
            chmod(folder.path, 0o755)
            try? FileManager.default.removeItem(at: folder)
        }
        let (model, store) = try Self.storeWithRowsOnlyInItsWAL(in: folder)
        #expect(chmod(folder.path, 0o555) == 0)
        let process = Process()
        var arguments = ["dump", "--model", model.path, store.path]
        if getuid() == 0 {
            // Root writes anywhere through CAP_DAC_OVERRIDE; without it the mode applies.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            arguments = ["--bounding-set=-dac_override", tool.path] + arguments
        } else {
            process.executableURL = tool
        }
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errors)")
        #expect(String(decoding: output, as: UTF8.self).split(separator: "\n").count == 42)
        #expect(!FileManager.default.fileExists(atPath: store.path + "-shm"))
        // The folder is really closed to this process: the same write fails.
        if getuid() == 0 {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            probe.arguments = [
                "--bounding-set=-dac_override", "/usr/bin/touch",
                folder.appendingPathComponent("x").path,
            ]
            probe.standardError = Pipe()
            try probe.run()
            probe.waitUntilExit()
            #expect(probe.terminationStatus != 0)
        }
    }

    @Test("a FIFO, a device or a folder is refused by every command before it is opened")
    func nonRegularPathsRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, _) = try DumpCommandTests.makeStore(in: folder)
        let fifo = folder.appendingPathComponent("pipe.sqlite").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let out = folder.appendingPathComponent("out.xml").path
        for path in [fifo, "/dev/null", folder.path] {
            var commands: [[String]] = [
                ["dump", "--model", model.path, path],
                ["query", "--model", model.path, "--entity", "Person", path],
                ["convert", "--model", model.path, path, out],
                ["convert", "--model", model.path, "--from", "sqlite", path, out],
                ["convert", "--model", model.path, "--from", "xml", path, out],
            ]
            if path != folder.path {  // a folder is a model path (an .xcdatamodel)
                commands += [
                    ["dump", "--model", path, fifo], ["describe", path], ["validate", path],
                ]
            }
            for arguments in commands {
                let result = guardedAgainstFIFO(fifo) { () -> [String] in
                    let io = BufferIO()
                    return [
                        "\(CommandLineTool.run(arguments, io: io))", io.errorOutput + io.output,
                    ]
                }
                #expect(result?[0] == "2", "\(arguments)")
                let said = "it is \(PathKind(atPath: path)), not "
                #expect(result?[1].contains(said) == true, "\(arguments): \(result ?? [])")
            }
        }
    }

    @Test("defaults refuses a preferences file that is a FIFO instead of waiting on it")
    func defaultsRefusesAFIFO() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let preferences = root.appendingPathComponent("Library/Preferences")
        try FileManager.default.createDirectory(at: preferences, withIntermediateDirectories: true)
        let fifo = preferences.appendingPathComponent("com.example.pipe.plist").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for arguments in [["read", "com.example.pipe"], ["write", "com.example.pipe", "k", "v"]] {
            let result = guardedAgainstFIFO(fifo) { () -> [String] in
                let io = BufferIO()
                let status = CommandLineTool.run(
                    ["defaults", "--root", root.path] + arguments, io: io)
                return ["\(status)", io.errorOutput]
            }
            #expect(result?[0] != "0", "\(arguments)")
            #expect(
                result?[1].contains("not a regular file") == true, "\(arguments): \(result ?? [])")
        }
        #expect(PathKind(atPath: fifo) == .fifo, "the FIFO is left as it was")
    }

    @Test("the library refuses a FIFO as a store of every type, read-only or not")
    func addStoreRefusesAFIFO() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let model = EntityModel(entities: [Entity("Thing")])
        for type in [StoreType.sqlite, .xml, .binary] {
            for readOnly in [true, false] {
                let error = guardedAgainstFIFO(fifo) { () -> StoreError? in
                    do {
                        try StoreCoordinator(model: model).addStore(
                            type: type, at: URL(fileURLWithPath: fifo),
                            options: StoreOptions(isReadOnly: readOnly))
                        return nil
                    } catch {
                        return error as? StoreError
                    }
                }
                let reason = "it is a FIFO (named pipe), not a regular file"
                #expect(error == .cannotOpen(path: fifo, reason: reason), "\(type) \(readOnly)")
            }
        }
        let detected = guardedAgainstFIFO(fifo) {
            StoreType(detectingFileAt: URL(fileURLWithPath: fifo))
        }
        #expect(detected == .some(nil), "returned, and judged by its (missing) extension")
        #expect(PathKind(atPath: fifo) == .fifo)
    }
}

/// A value handed from a worker thread: written once before it signals, read after.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// Runs `body` on another thread. When it has not returned after a while it is blocked
/// opening or reading the FIFO (the fault under test): the test records that and unblocks it
/// through the FIFO's writing end, rather than hanging.
private func guardedAgainstFIFO<T: Sendable>(_ fifo: String, _ body: @escaping @Sendable () -> T)
    -> T?
{
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        box.value = body()
        done.signal()
    }
    if done.wait(timeout: .now() + 20) == .timedOut {
        Issue.record("blocked on the FIFO \(fifo)")
        // A reader blocked in open() wakes when a writer opens; one blocked in read() (its
        // own descriptor may be the only writer) wakes on data: write zeros until it returns.
        let zeros = [UInt8](repeating: 0, count: 4096)
        repeat {
            let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
            if descriptor >= 0 {
                _ = write(descriptor, zeros, zeros.count)
                close(descriptor)
            }
        } while done.wait(timeout: .now() + 0.1) == .timedOut
    }
    return box.value
}
