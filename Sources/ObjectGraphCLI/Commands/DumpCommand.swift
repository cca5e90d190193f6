import Foundation
import ObjectGraph

/// `objectgraph dump [--model MODEL] STORE [--entity NAME]`: every object as one JSON line.
struct DumpCommand: Command {
    static let name = "dump"
    static let abstract = "Print every object of a store as JSON lines."
    static let help = """
        OVERVIEW: Print every object of a store, one JSON object per line:
          {"entity": "...", "id": "<URI>", "attributes": {...}, "relationships": {"name": ["<URI>", ...]}}
        Values follow 'objectgraph predicate --jsonl': null, numbers, strings, booleans,
        {"$date": <seconds since 1970>}, {"$data": "<base64>"}, {"$uuid": "..."}.
        The store is opened read-only: neither it nor any file beside it (-wal, -shm) is
        created or changed, and rows still in its -wal are read, even in a folder without
        write permission. A path that is not a regular file (a FIFO, device or folder) is
        refused before it is opened.

        STORE may be a postgresql:// URL (a PostgreSQL store, read in a read-only session;
        give --model, such a store keeps no model); its password is never printed.

        USAGE: objectgraph dump [--model MODEL] STORE [--entity NAME] [--quiet]

        OPTIONS:
          --model MODEL   The .xcdatamodeld, .xcdatamodel or contents file. Without
                          it, the model the store keeps inside it (Core Data's
                          Z_MODELCACHE).
          --entity NAME   Only objects of this entity (and its subentities).
          -q, --quiet     Show no progress (a bar on a terminal, lines on standard
                          error otherwise, once the dump has run for a second).
          -h, --help      Show help.

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var model: String?
        var entity: String?
        var store: String?
        var quiet = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--quiet", "-q":
                quiet = true
                index += 1
            case "--model", "--entity":
                guard index + 1 < arguments.count else {
                    return usageError("\(argument) needs a value", io: io)
                }
                if argument == "--model" {
                    model = arguments[index + 1]
                } else {
                    entity = arguments[index + 1]
                }
                index += 2
            default:
                if argument.hasPrefix("-") {
                    return usageError("unknown option \(argument)", io: io)
                }
                if store != nil { return usageError("only one store can be dumped", io: io) }
                store = argument
                index += 1
            }
        }
        guard let store else { return usageError("a STORE path is required", io: io) }
        do {
            let (loaded, context) = try StoreOpening.open(model: model, store: store)
            let names =
                entity.map { [$0] }
                ?? loaded.entities.filter { $0.parentName == nil }.map(\.name).sorted()
            for name in names where loaded.entity(named: name) == nil {
                io.writeError("error: the model has no entity '\(name)'\n")
                return ExitStatus.usage
            }
            // Progress on standard error (the dump goes to standard output): objects written
            // of those the store holds, counted first.
            let display = ProgressDisplay(
                command: Self.name, io: io, mode: ProgressDisplay.mode(quiet: quiet, io: io))
            defer { display.finish() }
            let total = try names.reduce(0) {
                $0 + (try context.count(for: FetchRequest(entityName: $1)))
            }
            var done = 0
            for name in names {
                for object in try context.fetch(FetchRequest(entityName: name)) {
                    io.write(try StoreJSON.line(StoreJSON.object(object, model: loaded)) + "\n")
                    done += 1
                    if done % 256 == 0 || done == total {
                        display.show(
                            ProgressDisplay.Report(
                                fraction: total > 0 ? Double(done) / Double(total) : 1,
                                counts: (done, total), unit: "objects",
                                detail: "writing \(name)"))
                    }
                }
            }
            return ExitStatus.success
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
    }
}
